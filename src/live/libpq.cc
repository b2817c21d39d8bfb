// dlopen of libpq.so.5 and the lookup of each function.
#include "live/libpq.h"

#include <dlfcn.h>

#include <mutex>

namespace pgconflint::live {
namespace {

template <typename F>
bool Resolve(void* handle, const char* name, F* out, std::string* missing) {
  *out = reinterpret_cast<F>(dlsym(handle, name));
  if (!*out && missing->empty()) *missing = name;
  return *out != nullptr;
}

}  // namespace

const Libpq* LoadLibpq(std::string* error) {
  static std::once_flag once;
  static Libpq* loaded = nullptr;
  static std::string failure;
  std::call_once(once, [] {
    void* h = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      const char* why = dlerror();
      failure = std::string("cannot load libpq (libpq.so.5; Debian: apt-get install libpq5): ") + (why ? why : "");
      return;
    }
    auto* l = new Libpq();
    std::string missing;
    Resolve(h, "PQconnectdbParams", &l->connectdb_params, &missing);
    Resolve(h, "PQstatus", &l->status, &missing);
    Resolve(h, "PQerrorMessage", &l->error_message, &missing);
    Resolve(h, "PQfinish", &l->finish, &missing);
    Resolve(h, "PQsendQuery", &l->send_query, &missing);
    Resolve(h, "PQsocket", &l->socket, &missing);
    Resolve(h, "PQconsumeInput", &l->consume_input, &missing);
    Resolve(h, "PQisBusy", &l->is_busy, &missing);
    Resolve(h, "PQgetResult", &l->get_result, &missing);
    Resolve(h, "PQresultStatus", &l->result_status, &missing);
    Resolve(h, "PQresultErrorMessage", &l->result_error_message, &missing);
    Resolve(h, "PQntuples", &l->ntuples, &missing);
    Resolve(h, "PQgetvalue", &l->getvalue, &missing);
    Resolve(h, "PQgetisnull", &l->getisnull, &missing);
    Resolve(h, "PQclear", &l->clear, &missing);
    Resolve(h, "PQuser", &l->user, &missing);
    Resolve(h, "PQhost", &l->host, &missing);
    Resolve(h, "PQport", &l->port, &missing);
    Resolve(h, "PQdb", &l->db, &missing);
    if (!missing.empty()) {
      failure = "libpq.so.5 lacks " + missing;
      delete l;
      return;
    }
    loaded = l;
  });
  if (!loaded) *error = failure;
  return loaded;
}

}  // namespace pgconflint::live
