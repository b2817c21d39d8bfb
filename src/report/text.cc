// Escaping and the other helpers of the output formats.
#include "report/text.h"

namespace pgconflint {
namespace {

// Appends `s` escaped; `tab` replaces each tab. Works on bytes: a control
// character is a byte below 0x20, DEL, or C1 (U+0080-U+009F, encoded C2 80-9F);
// no other byte of UTF-8, valid or not, can start one.
void AppendEscaped(std::string_view s, std::string_view tab, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->reserve(out->size() + s.size());
  size_t run = 0;  // start of the bytes not yet appended
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char b = static_cast<unsigned char>(s[i]);
    bool c1 = b == 0xC2 && i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xE0) == 0x80;
    if (b >= 0x20 && b != 0x7F && !c1) continue;
    out->append(s.substr(run, i - run));
    if (b == '\t') {
      out->append(tab);
    } else {
      for (size_t k = i; k <= i + c1; ++k) {
        unsigned char e = static_cast<unsigned char>(s[k]);
        out->append({'\\', 'x', kHex[e >> 4], kHex[e & 15]});
      }
    }
    i += c1;
    run = i + 1;
  }
  out->append(s.substr(run));
}

}  // namespace

std::string EscapeControls(std::string_view s) {
  std::string out;
  AppendEscaped(s, "\t", &out);
  return out;
}

std::string DisplayLine(std::string_view s) {
  std::string out;
  AppendEscaped(s, "    ", &out);
  return out;
}

const std::string& FilePath(const Analysis& analysis, int file) {
  return file >= 0 ? analysis.files[file].source.path() : analysis.root;
}

Summary Summarize(const std::vector<Analysis>& analyses) {
  Summary s;
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics) {
      if (d.severity == Severity::kError) ++s.errors;
      else if (d.severity == Severity::kWarning) ++s.warnings;
      else ++s.info;
    }
  return s;
}

namespace {

std::string Plural(int n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

}  // namespace

std::string SummaryLine(const std::vector<Analysis>& analyses, int pg_version, const std::string& reason) {
  int fatal_roots = 0, unread = 0;
  for (const Analysis& a : analyses) {
    if (a.failure != Analysis::Failure::kNone) ++unread;
    else fatal_roots += a.fatal();
  }
  Summary sum = Summarize(analyses);
  std::string out = "Found " + Plural(sum.errors, "error") + ", " + Plural(sum.warnings, "warning") + ", " +
                    std::to_string(sum.info) + " info in " + Plural(static_cast<int>(analyses.size()), "root") +
                    " (PostgreSQL " + std::to_string(pg_version) + (reason.empty() ? "" : ": " + reason) + ")";
  if (fatal_roots) out += "; PostgreSQL would refuse to start with " + Plural(fatal_roots, "root");
  if (unread) out += "; " + Plural(unread, "root") + (unread == 1 ? " was" : " were") + " not read (see the errors above)";
  return out + ".";
}

}  // namespace pgconflint
