// A rapidcheck property held to a real server: for generated files that mix
// every token class of guc-file.l, pgconflint's verdict (would PostgreSQL 18
// refuse the file?) and the value it computes equal `postgres -C`'s.
//
// Needs the binaries of scripts/fetch-postgres.sh; as root it runs them as the
// unprivileged user the integration suites use (created here if missing).
// Skipped, with the reason, when the binaries are absent.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/conf/analyze.h"
#include "core/model/analysis.h"
#include "core/knowledge/catalog.h"

namespace pgconflint {
namespace {

namespace fs = std::filesystem;

const char kUser[] = "pgconflint-test";

std::string Bin() { return PGC_SOURCE_DIR "/.cache/postgres/18/bin"; }

// Runs a shell command, returns (exit status, stdout).
std::pair<int, std::string> Run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return {-1, out};
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

std::string AsUser(const std::string& cmd) {
  return geteuid() == 0 ? std::string("runuser -u ") + kUser + " -- " + cmd : cmd;
}

// One initdb'd data directory for the whole test binary.
class Oracle {
 public:
  /// The process-wide instance, or null (see WhyNot) when it cannot run.
  static Oracle* Get() { return Instance().ok_ ? &Instance() : nullptr; }
  static const std::string& WhyNot() { return Instance().why_; }

  // (accepted, value printed by -C)
  std::pair<bool, std::string> Check(const std::string& text, const std::string& name) {
    std::string path = dir_ + "/case.conf";
    std::ofstream(path, std::ios::binary) << text;
    chmod(path.c_str(), 0644);
    auto [rc, out] = Run(AsUser(Bin() + "/postgres -D " + dir_ + "/data -c config_file=" + path + " -C " + name +
                                " 2>/dev/null"));
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return {rc == 0, out};
  }

 private:
  static Oracle& Instance() {
    static Oracle* o = new Oracle();  // never destroyed: its data directory outlives the tests
    return *o;
  }
  Oracle() {
    if (access((Bin() + "/postgres").c_str(), X_OK) != 0) {
      why_ = "no PostgreSQL 18 binaries (scripts/fetch-postgres.sh 18)";
      return;
    }
    if (geteuid() == 0 && Run(std::string("id -u ") + kUser + " >/dev/null 2>&1").first != 0)
      Run(std::string("useradd --system --no-create-home --shell /usr/sbin/nologin ") + kUser);
    char tmpl[] = "/tmp/pgconflint-oracle-XXXXXX";
    dir_ = mkdtemp(tmpl);
    chmod(dir_.c_str(), 0777);
    auto [rc, out] = Run(AsUser(Bin() + "/initdb -D " + dir_ + "/data -A trust -U postgres --no-sync >/dev/null 2>&1"));
    if (rc != 0) {
      why_ = "initdb failed";
      return;
    }
    ok_ = true;
  }
  bool ok_ = false;
  std::string why_;
  std::string dir_;
};

// Lines built from every token class: names (known, custom, broken), an
// optional '=', values of every lexical class, comments, junk.
rc::Gen<std::string> Line() {
  using rc::gen::element;
  return rc::gen::apply(
      [](std::string name, std::string eq, std::string value, std::string tail, std::string eol) {
        return name + eq + value + tail + eol;
      },
      element<std::string>("work_mem", "WORK_MEM", "max_connections", "statement_timeout", "enable_seqscan",
                           "log_min_messages", "application_name", "search_path", "random_page_cost",
                           "myext.x", "sort_mem", "wrok_mem", "a.b.c", "2pc", "shared_buffers"),
      element<std::string>(" = ", "=", " ", "\t=\t", " == "),
      element<std::string>("64", "64MB", "'64MB'", "64 MB", "1.5GB", "'1.5GB'", "0x10", "017", "099", "1e3",
                           "'1e3kB'", "100.6", "'100us'", "'1500us'", "-1", "+5", ".5", "'it''s'", "'a\\tb'",
                           "on", "of", "o", "TRUE", "'warning'", "Debug", "a.b", "a.b.c", "C.UTF-8", "'\"$user\", public'",
                           "*", "'*'", "\"dq\"", "'unterminated", "x-y", "1min", "'25d'", "65537B", "4MB", "128kB",
                           "2TB", "NaN", "'inf'", "'  2'", "abc", "''"),
      element<std::string>("", "", "", " # comment", "#c", " junk", " ,"),
      element<std::string>("\n", "\n", "\r\n"));
}

TEST(OracleProperty, VerdictAndValueEqualPostgres18) {
  Oracle* oracle = Oracle::Get();
  if (!oracle) GTEST_SKIP() << Oracle::WhyNot();
  EXPECT_TRUE(rc::check("generated files get the server's verdict and value", [oracle] {
    std::vector<std::string> lines =
        *rc::gen::resize(6, rc::gen::nonEmpty(rc::gen::container<std::vector<std::string>>(Line())));
    std::string text;
    for (const std::string& l : lines) text += l;
    const std::string name = *rc::gen::element<std::string>("work_mem", "max_connections", "statement_timeout",
                                                            "enable_seqscan", "log_min_messages", "search_path");
    AnalyzeOptions opts;
    opts.catalog = Catalog::ForMajor(18);
    Analysis a = AnalyzeText("/tmp/case.conf", text, opts);
    bool fatal = false;
    for (const Diagnostic& d : a.diagnostics) fatal |= d.fatal();
    std::string value;
    if (const Setting* s = a.Effective(name)) value = *s->value;
    else value = opts.catalog->Find(name)->boot_val;
    auto [accepted, printed] = oracle->Check(text, name);
    RC_ASSERT(fatal == !accepted);
    if (accepted) RC_ASSERT(value == printed);
  }));
}

}  // namespace
}  // namespace pgconflint
