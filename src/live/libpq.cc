// dlopen of libpq.so.5 and the lookup of each function.
#include "live/libpq.h"

#include <dlfcn.h>
#include <link.h>
#include <gnu/libc-version.h>

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

bool LibpqOnSecondCLibrary() {
  // A dynamic program has a PT_DYNAMIC segment; a static one has none, and any libpq it
  // loads comes with the system's libc.so.6.
  static const bool is_static = [] {
    bool dynamic = false;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) {
          for (int i = 0; i < info->dlpi_phnum; ++i)
            if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) *static_cast<bool*>(data) = true;
          return 1;  // the program itself comes first
        },
        &dynamic);
    return !dynamic;
  }();
  return is_static;
}

const Libpq* LoadLibpq(std::string* error) {
  static std::once_flag once;
  static Libpq* loaded = nullptr;
  static std::string failure;
  std::call_once(once, [] {
    // A static binary (the release archives) loads libpq with the system's shared C
    // library beside its own: glibc supports that only for the release it was linked with.
    void* libc = LibpqOnSecondCLibrary() ? dlopen("libc.so.6", RTLD_NOW | RTLD_LOCAL) : nullptr;
    if (libc) {
      using Version = const char* (*)();
      auto system_version = reinterpret_cast<Version>(dlsym(libc, "gnu_get_libc_version"));
      const std::string own = gnu_get_libc_version();
      if (system_version && own != system_version()) {
        failure = "live mode cannot load libpq: this pgconflint is linked statically with glibc " + own +
                  " and this system has glibc " + system_version() +
                  " (build pgconflint from source on this system for live mode)";
        return;
      }
    }
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
