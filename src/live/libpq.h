// libpq, loaded on first use. pgconflint starts without it (loading libpq
// and the TLS, Kerberos and LDAP libraries it needs costs far more than a
// whole `check` of a file), and opens libpq.so.5 (Debian's libpq5, whose
// headers libpq-dev provides) only when a live server is asked for.
#ifndef PGCONFLINT_LIVE_LIBPQ_H_
#define PGCONFLINT_LIVE_LIBPQ_H_

#include <libpq-fe.h>

#include <string>

namespace pgconflint::live {

/// The libpq functions pgconflint uses.
struct Libpq {
  decltype(&PQconnectdbParams) connectdb_params;
  decltype(&PQstatus) status;
  decltype(&PQerrorMessage) error_message;
  decltype(&PQfinish) finish;
  decltype(&PQsendQuery) send_query;
  decltype(&PQsocket) socket;
  decltype(&PQconsumeInput) consume_input;
  decltype(&PQisBusy) is_busy;
  decltype(&PQgetResult) get_result;
  decltype(&PQresultStatus) result_status;
  decltype(&PQresultErrorMessage) result_error_message;
  decltype(&PQntuples) ntuples;
  decltype(&PQgetvalue) getvalue;
  decltype(&PQgetisnull) getisnull;
  decltype(&PQclear) clear;
  decltype(&PQuser) user;
  decltype(&PQhost) host;
  decltype(&PQport) port;
  decltype(&PQdb) db;
};

/// libpq's functions, or null with *error when libpq.so.5 cannot be loaded.
/// Loaded once; thread-safe.
const Libpq* LoadLibpq(std::string* error);

/// True when libpq would run on a C library other than the binary's own (a static binary:
/// glibc's static dlopen loads the system's shared one beside it). Such a libpq is used from
/// the main thread only: threads the binary starts have no state in the second library.
bool LibpqOnSecondCLibrary();

}  // namespace pgconflint::live

#endif  // PGCONFLINT_LIVE_LIBPQ_H_
