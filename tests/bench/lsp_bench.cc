// Benchmark of `pgconflint server` through its real stdin and stdout, as an
// editor talks to it (docs/benchmarks.md). Speed is measured here, never by
// timed tests.
//
//   1. initialize to first diagnostics: process start, initialize,
//      initialized, didOpen, until publishDiagnostics arrives;
//   2. re-lint and publish after a one-character edit in a 5,000-line file:
//      didChange to the publishDiagnostics of that version;
//   3. resident memory with 50 open documents;
//   4. 50 roots of 5,000 lines (a postgresql.conf and 20 conf.d fragments
//      each), every document open: the server's CPU time to open them against
//      `pgconflint check` of each root once, resident memory, and how many
//      documents a comment edit in one fragment publishes.
//
// Usage: pgconflint_lsp_bench --binary build/pgconflint [--edits 1000] [--starts 50]
//                             [--debounce-ms MS] [--documents 50] [--roots 50]
// Without --debounce-ms the server runs with its default (a change alone is
// linted at once; the debounce applies to bursts).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "lsp/protocol.h"
#include "lsp/transport.h"

namespace {

using pgconflint::lsp::json;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// One `pgconflint server` process.
class ServerProcess {
 public:
  ServerProcess(const std::string& binary, const std::vector<std::string>& args) {
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) Die("pipe");
    pid_ = fork();
    if (pid_ < 0) Die("fork");
    if (pid_ == 0) {
      dup2(to_child[0], 0);
      dup2(from_child[1], 1);
      int null = open("/dev/null", O_WRONLY);
      dup2(null, 2);
      std::vector<char*> argv;
      argv.push_back(const_cast<char*>(binary.c_str()));
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(binary.c_str(), argv.data());
      _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    in_ = to_child[1];
    out_ = from_child[0];
  }
  // Ends the server as an editor does (shutdown, exit), so that a wrapper
  // such as a heap profiler sees a normal exit; killed if it has not exited
  // 10 s later.
  ~ServerProcess() {
    TrySend({{"jsonrpc", "2.0"}, {"id", "shutdown"}, {"method", "shutdown"}});
    TrySend({{"jsonrpc", "2.0"}, {"method", "exit"}, {"params", json::object()}});
    close(in_);
    close(out_);
    for (int waited = 0; waited < 1000; ++waited) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) return;
      usleep(10000);
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }

  void Send(const json& message) {
    if (!TrySend(message)) Die("write");
  }
  bool TrySend(const json& message) {
    std::string framed = pgconflint::lsp::Frame(message.dump());
    for (size_t done = 0; done < framed.size();) {
      ssize_t n = write(in_, framed.data() + done, framed.size() - done);
      if (n <= 0) return false;
      done += static_cast<size_t>(n);
    }
    return true;
  }
  void Notify(const std::string& method, json params) {
    Send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
  }
  // Reads messages until `done` accepts one; returns it.
  json WaitFor(const std::function<bool(const json&)>& done) {
    for (;;) {
      while (!pending_.empty()) {
        json m = json::parse(pending_.front().body);
        pending_.erase(pending_.begin());
        if (done(m)) return m;
      }
      pollfd p{out_, POLLIN, 0};
      if (poll(&p, 1, 30000) <= 0) Die("no answer from the server in 30 s");
      char buffer[1 << 16];
      ssize_t n = read(out_, buffer, sizeof buffer);
      if (n <= 0) Die("the server closed its output");
      reader_.Feed(std::string_view(buffer, static_cast<size_t>(n)), &pending_);
    }
  }
  json Published(const std::string& uri, int64_t version) {
    return WaitFor([&](const json& m) {
      return m.value("method", "") == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri &&
             m["params"].value("version", int64_t{-1}) == version;
    });
  }
  void Initialize(const std::string& root) {
    Send({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"},
          {"params", {{"rootUri", pgconflint::lsp::PathToUri(root)}, {"capabilities", json::object()}}}});
    WaitFor([](const json& m) { return m.contains("id") && m["id"] == 0; });
    Notify("initialized", json::object());
  }
  void Open(const std::string& path, const std::string& text) {
    Notify("textDocument/didOpen", {{"textDocument", {{"uri", pgconflint::lsp::PathToUri(path)}, {"languageId", "pgconf"},
                                                      {"version", 1}, {"text", text}}}});
  }
  // The process's user + system CPU time so far, in ms.
  double CpuMs() const {
    std::ifstream stat("/proc/" + std::to_string(pid_) + "/stat");
    std::string all((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    std::istringstream rest(all.substr(all.rfind(')') + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
      if (i == 14) utime = std::stod(field);
      if (i == 15) stime = std::stod(field);
    }
    return (utime + stime) * 1000.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
  }
  // VmRSS and VmHWM of the process, in kB.
  std::pair<long, long> Memory() const {
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    long rss = 0, hwm = 0;
    std::string key;
    while (status >> key) {
      if (key == "VmRSS:") status >> rss;
      else if (key == "VmHWM:") status >> hwm;
      else status.ignore(1 << 10, '\n');
    }
    return {rss, hwm};
  }

 private:
  [[noreturn]] static void Die(const char* what) {
    std::cerr << "lsp_bench: " << what << "\n";
    std::exit(1);
  }
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  pgconflint::lsp::MessageReader reader_;
  std::vector<pgconflint::lsp::ReaderEvent> pending_;
};

// A postgresql.conf as DBAs keep them: mostly comments, a setting every few
// lines, a few findings (overridden lines, an old name). Values are user input.
std::string TypicalConf(int lines) {
  static const char* kSettings[] = {
      "listen_addresses = '*'", "max_connections = 200", "shared_buffers = 8GB", "work_mem = 64MB",
      "maintenance_work_mem = 1GB", "effective_cache_size = 24GB", "wal_buffers = 16MB",
      "checkpoint_timeout = 15min", "max_wal_size = 8GB", "min_wal_size = 2GB", "random_page_cost = 1.1",
      "effective_io_concurrency = 200", "log_min_duration_statement = 500ms", "log_line_prefix = '%m [%p] '",
      "autovacuum_max_workers = 5", "autovacuum_naptime = 30s", "default_statistics_target = 200",
      "max_parallel_workers = 8", "max_parallel_workers_per_gather = 4", "timezone = 'UTC'",
      "sort_mem = '4MB'", "port = 5432"};
  const int n = sizeof kSettings / sizeof kSettings[0];
  std::string text;
  for (int i = 0, s = 0; i < lines; ++i) {
    if (i % 25 == 12) {
      text += std::string(kSettings[s++ % n]) + "\t\t# tuned\n";
    } else {
      text += "#   comment line " + std::to_string(i) + ": what the next setting does and why\n";
    }
  }
  return text;
}

struct Stats {
  double p50, p99, max, mean;
};

Stats Summarize(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<size_t>(q * v.size()))]; };
  return {at(0.50), at(0.99), v.back(), sum / v.size()};
}

void Print(const char* what, const Stats& s, size_t n) {
  std::printf("%-58s n=%-5zu p50 %7.2f ms  p99 %7.2f ms  max %7.2f ms  mean %7.2f ms\n", what, n, s.p50, s.p99,
              s.max, s.mean);
}

}  // namespace

int main(int argc, char** argv) {
  std::string binary = "build/pgconflint";
  int edits = 1000, starts = 50, documents = 50, roots = 50;
  std::string debounce;  // "": the server's default
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--binary") binary = v;
    else if (k == "--edits") edits = std::atoi(v.c_str());
    else if (k == "--starts") starts = std::atoi(v.c_str());
    else if (k == "--debounce-ms") debounce = v;
    else if (k == "--documents") documents = std::atoi(v.c_str());
    else if (k == "--roots") roots = std::atoi(v.c_str());
  }
  signal(SIGPIPE, SIG_IGN);
  char tmpl[] = "/tmp/pgconflint-lsp-bench-XXXXXX";
  const std::string root = mkdtemp(tmpl);
  std::vector<std::string> args = {"server", "--docs-dir", root + "/pages"};
  if (!debounce.empty()) args.insert(args.end(), {"--debounce-ms", debounce});
  std::printf("pgconflint server (%s), %s\n", binary.c_str(),
              debounce.empty() ? "default settings" : ("--debounce-ms " + debounce).c_str());

  // 1. initialize to first diagnostics, for a typical file (150 lines) and the big one.
  for (int lines : {150, 5000}) {
    const std::string dir = root + "/start" + std::to_string(lines), path = dir + "/postgresql.conf";
    fs::create_directories(dir);
    const std::string text = TypicalConf(lines);
    std::ofstream(path) << text;
    std::vector<double> times;
    for (int i = 0; i < starts; ++i) {
      auto t0 = Clock::now();
      ServerProcess server(binary, args);
      server.Initialize(dir);
      server.Open(path, text);
      server.Published(pgconflint::lsp::PathToUri(path), 1);
      times.push_back(Ms(Clock::now() - t0));
    }
    Print(("initialize to first diagnostics, " + std::to_string(lines) + " lines").c_str(), Summarize(times),
          times.size());
  }

  // 2. one-character edits in a 5,000-line file.
  {
    const std::string path = root + "/start5000/postgresql.conf", uri = pgconflint::lsp::PathToUri(path);
    std::string text = TypicalConf(5000);
    const size_t at = text.find("work_mem = 64MB") + std::string("work_mem = 6").size();
    const pgconflint::SourceFile file(path, text);
    const json position = pgconflint::lsp::PositionJson(file, static_cast<uint32_t>(at), pgconflint::ColumnUnit::kUtf16);
    const json range = {{"start", position}, {"end", {{"line", position["line"]}, {"character", position["character"].get<int>() + 1}}}};
    ServerProcess server(binary, args);
    server.Initialize(root + "/start5000");
    server.Open(path, text);
    json first = server.Published(uri, 1);
    const double cpu0 = server.CpuMs();
    std::vector<double> times;
    for (int v = 2; v < edits + 2; ++v) {
      auto t0 = Clock::now();
      server.Notify("textDocument/didChange",
                    {{"textDocument", {{"uri", uri}, {"version", v}}},
                     {"contentChanges", {{{"range", range}, {"text", v % 2 ? "4" : "5"}}}}});
      server.Published(uri, v);
      times.push_back(Ms(Clock::now() - t0));
    }
    const double cpu_per_edit = (server.CpuMs() - cpu0) / edits;
    Print("edit to publishDiagnostics, 5,000 lines", Summarize(times), times.size());
    std::printf("  (server CPU per edit: %.2f ms, the figure a loaded host does not change)\n", cpu_per_edit);
    std::printf("  (%zu diagnostics published per version, %zu bytes of text)\n", first["params"]["diagnostics"].size(),
                text.size());
  }

  // 3. memory with many open documents (each its own data directory).
  {
    ServerProcess server(binary, args);
    server.Initialize(root);
    auto before = server.Memory();
    for (int d = 0; d < documents; ++d) {
      const std::string dir = root + "/docs/d" + std::to_string(d), path = dir + "/postgresql.conf";
      fs::create_directories(dir);
      const std::string text = TypicalConf(150 + d);
      std::ofstream(path) << text;
      server.Open(path, text);
      server.Published(pgconflint::lsp::PathToUri(path), 1);
    }
    auto after = server.Memory();
    std::printf("resident memory: %ld kB after initialize; %ld kB with %d open documents (peak %ld kB)\n",
                before.first, after.first, documents, after.second);
  }

  // 4. many roots of 5,000 lines, every document open.
  {
    const int kFragments = 20;
    std::vector<std::pair<std::string, std::string>> docs;  // path, text
    for (int r = 0; r < roots; ++r) {
      const std::string dir = root + "/roots/r" + std::to_string(r);
      fs::create_directories(dir + "/conf.d");
      const std::string conf = "include_dir = 'conf.d'\n" + TypicalConf(4000 - 1);
      std::ofstream(dir + "/postgresql.conf") << conf;
      docs.push_back({dir + "/postgresql.conf", conf});
      for (int f = 0; f < kFragments; ++f) {
        const std::string path = dir + "/conf.d/" + std::to_string(10 + f) + "-part.conf";
        const std::string text = TypicalConf(50);
        std::ofstream(path) << text;
        docs.push_back({path, text});
      }
    }
    // `pgconflint check` of each root once: the children's CPU time.
    rusage before{}, after{};
    getrusage(RUSAGE_CHILDREN, &before);
    for (int r = 0; r < roots; ++r) {
      const std::string cmd = binary + " check --fail-on never --format concise " + root + "/roots/r" +
                              std::to_string(r) + " > /dev/null 2>&1";
      if (std::system(cmd.c_str()) < 0) return 1;
    }
    getrusage(RUSAGE_CHILDREN, &after);
    auto ms = [](const timeval& t) { return t.tv_sec * 1000.0 + t.tv_usec / 1000.0; };
    const double check_ms = ms(after.ru_utime) - ms(before.ru_utime) + ms(after.ru_stime) - ms(before.ru_stime);
    ServerProcess server(binary, args);
    server.Initialize(root + "/roots");
    const double cpu0 = server.CpuMs();
    auto t0 = Clock::now();
    for (const auto& [path, text] : docs) server.Open(path, text);
    // Every document's first diagnostics, in whatever order they come.
    std::set<std::string> waiting;
    for (const auto& [path, text] : docs) waiting.insert(pgconflint::lsp::PathToUri(path));
    server.WaitFor([&](const json& m) {
      if (m.value("method", "") == "textDocument/publishDiagnostics" && m["params"].value("version", int64_t{-1}) == 1)
        waiting.erase(m["params"]["uri"].get<std::string>());
      return waiting.empty();
    });
    const double open_ms = Ms(Clock::now() - t0), open_cpu = server.CpuMs() - cpu0;
    // Resident memory once the server is idle: a request answered, then a
    // moment for what it does when nothing is queued (it drops the analyses
    // beyond those it keeps and returns free memory).
    server.Send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "textDocument/documentSymbol"},
                 {"params", {{"textDocument", {{"uri", pgconflint::lsp::PathToUri(docs[0].first)}}}}}});
    server.WaitFor([](const json& m) { return m.contains("id") && m["id"] == 2 && !m.contains("method"); });
    usleep(200000);
    auto memory = server.Memory();
    // A comment edit in one fragment, then a request on it: the server answers
    // after publishing what the edit changed, so what arrives before the
    // answer is every publication the edit caused.
    const std::string& fragment = docs[1].first;
    const std::string uri = pgconflint::lsp::PathToUri(fragment);
    server.Notify("textDocument/didChange",
                  {{"textDocument", {{"uri", uri}, {"version", 2}}},
                   {"contentChanges", {{{"range", {{"start", {{"line", 0}, {"character", 1}}},
                                                  {"end", {{"line", 0}, {"character", 1}}}}},
                                        {"text", " edited"}}}}});
    server.Send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "textDocument/documentSymbol"},
                 {"params", {{"textDocument", {{"uri", uri}}}}}});
    int published = 0;
    server.WaitFor([&](const json& m) {
      if (m.value("method", "") == "textDocument/publishDiagnostics") ++published;
      return m.contains("id") && m["id"] == 1 && !m.contains("method");
    });
    std::printf("%d roots of 5,000 lines, %zu open documents: opened in %.0f ms, %.0f ms of server CPU "
                "(`check` of each root once: %.0f ms of CPU); resident %ld kB (peak %ld kB); a comment edit "
                "in one fragment published %d document(s)\n",
                roots, docs.size(), open_ms, open_cpu, check_ms, memory.first, memory.second, published);
  }
  fs::remove_all(root);
  return 0;
}
