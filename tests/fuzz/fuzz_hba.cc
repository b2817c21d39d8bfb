// libFuzzer harness over the pg_hba.conf / pg_ident.conf reader: the
// tokenizer (quoting, continuation, @files, include directives), the parser
// of every major, the regular expressions, the checks, the comparison with a
// server's rows and the editor data (hover and completion at every offset),
// through Workspace::Lint of a data directory held in memory (the fuzzer
// never reads or writes host files).
//
// The input's first byte picks the major (one of Catalog::SupportedMajors())
// and whether postgresql.conf turns ssl on; the rest is split at NUL bytes
// into pg_hba.conf, pg_ident.conf and two files the first two may name
// (`@users`, `include extra.conf`, `include_dir conf.d`). A crash, a sanitizer
// report or a timeout is a finding.
//
// Built with clang-14 when PGCONFLINT_FUZZ is on (tests/fuzz/CMakeLists.txt,
// which also runs it briefly in the test suite: fuzz.hba).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/analysis.h"
#include "core/knowledge/catalog.h"
#include "core/base/file_system.h"
#include "core/hba/hba.h"
#include "core/hba/hba_docs.h"
#include "core/hba/hba_server.h"
#include "core/base/host.h"
#include "core/workspace/workspace.h"

namespace {

using namespace pgconflint;

std::vector<std::string> SplitAtNul(std::string_view input, size_t parts) {
  std::vector<std::string> out;
  while (out.size() + 1 < parts) {
    size_t nul = input.find('\0');
    if (nul == std::string_view::npos) break;
    out.emplace_back(input.substr(0, nul));
    input.remove_prefix(nul + 1);
  }
  out.emplace_back(input);
  out.resize(parts);
  return out;
}

// Hover and completion at a spread of offsets of every file the lint read.
void ProbeEditorData(const Analysis& a) {
  for (size_t f = 0; f < a.files.size(); ++f) {
    const uint32_t size = static_cast<uint32_t>(a.files[f].source.text().size());
    const uint32_t step = size / 64 + 1;
    for (uint32_t offset = 0; offset <= size + 1; offset += step) {
      if (std::optional<AuthHover> h = DescribeAuthPosition(a, static_cast<int>(f), offset)) {
        if (h->range.begin > h->range.end) abort();
      }
      (void)CompleteAuthPosition(a, static_cast<int>(f), offset);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const UnknownHost host;
  if (size == 0) return 0;
  const std::span<const int> majors = Catalog::SupportedMajors();
  const int major = majors[data[0] % majors.size()];
  const bool ssl = (data[0] / majors.size()) % 2;
  std::vector<std::string> files =
      SplitAtNul(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1), 4);
  OverlayFileSystem fs(nullptr, "/fuzz");
  fs.Set("/fuzz/d/postgresql.conf", ssl ? "ssl = on\n" : "");
  fs.Set("/fuzz/d/pg_hba.conf", files[0]);
  fs.Set("/fuzz/d/pg_ident.conf", files[1]);
  fs.Set("/fuzz/d/users", files[2]);
  fs.Set("/fuzz/d/extra.conf", files[3]);
  fs.Set("/fuzz/d/conf.d/a.conf", files[3]);
  WorkspaceOptions options;
  options.fs = &fs;
  options.host = &host;
  options.pg_version = major;
  options.use_config = false;
  // The server's rows, as the live mode passes them: empty views, so every
  // line is compared (and differs).
  static const std::vector<ServerHbaRule> no_hba_rows;
  static const std::vector<ServerIdentMapping> no_ident_rows;
  options.server_hba = &no_hba_rows;
  options.server_ident = &no_ident_rows;
  Workspace workspace(options);
  Analysis a;
  std::string error;
  if (!workspace.Lint("/fuzz/d", &a, &error)) abort();  // no configuration problem is possible here
  ProbeEditorData(a);
  return 0;
}
