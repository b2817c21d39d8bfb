// Escaping and the other helpers of the output formats.
#include "report/text.h"

#include <algorithm>
#include <set>

#include "core/model/fingerprint.h"
#include "core/base/strings.h"

#ifndef PGCONFLINT_DOCS_URL
#define PGCONFLINT_DOCS_URL ""
#endif
#ifndef PGCONFLINT_HOME_URL
#define PGCONFLINT_HOME_URL ""
#endif

namespace pgconflint {
namespace {

}  // namespace

std::string LineStartSafe(std::string shown) {
  std::string_view rest = TrimBlanks(shown);
  if (rest.starts_with("::") || rest.starts_with("##[")) return "./" + shown;
  return shown;
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
      if (d.severity() == Severity::kError) ++s.errors;
      else if (d.severity() == Severity::kWarning) ++s.warnings;
      else ++s.info;
    }
  return s;
}

std::string BasePath(const Analysis& analysis, int file, const std::string& base) {
  if (file < 0) return analysis.root;
  const LoadedFile& f = analysis.files[file];
  if (base.empty()) return f.source.path();
  std::string rel = PathBelow(f.abs_path, base);
  return rel == f.abs_path ? f.source.path() : rel;
}

Span SpanOf(const Analysis& analysis, const Location& where, ColumnUnit unit) {
  if (where.file < 0) return {};
  const SourceFile& src = analysis.files[where.file].source;
  return {src.PositionOf(where.range.begin, unit), src.PositionOf(where.range.end, unit)};
}

std::vector<const Fix*> SafeFixes(const Diagnostic& d) {
  std::vector<const Fix*> out;
  for (const Fix& f : d.fixes)
    if (f.safety == FixSafety::kSafe) out.push_back(&f);
  return out;
}

std::string HomeUrl() { return PGCONFLINT_HOME_URL; }

std::string RuleDocUrl(const RuleInfo& rule) {
  // The base comes from the build (CMake's PGCONFLINT_DOCS_URL): one place
  // to point every format at the published rule pages.
  if (rule.builtin) return *PGCONFLINT_DOCS_URL ? std::string(PGCONFLINT_DOCS_URL) + rule.name + ".md" : "";
  for (const char* const* r = rule.references; r && *r; ++r) {
    std::string_view ref = *r;
    if (ref.rfind("https://", 0) == 0 || ref.rfind("http://", 0) == 0) return std::string(ref);
  }
  return "";
}

std::vector<const RuleInfo*> RulesInReport(const std::vector<Analysis>& analyses) {
  std::set<const RuleInfo*> seen;
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics) seen.insert(d.rule);
  std::vector<const RuleInfo*> out(seen.begin(), seen.end());
  std::sort(out.begin(), out.end(),
            [](const RuleInfo* x, const RuleInfo* y) { return std::string_view(x->code) < std::string_view(y->code); });
  return out;
}

std::string JsonWithoutRawControls(std::string_view json) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(json.size());
  for (size_t i = 0; i < json.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(json[i]);
    unsigned char next = i + 1 < json.size() ? static_cast<unsigned char>(json[i + 1]) : 0;
    if (c == 0x7f) {
      out += "\\u007f";
    } else if (c == 0xc2 && next >= 0x80 && next <= 0x9f) {  // U+0080..U+009F
      out += "\\u00";
      out += kHex[next >> 4];
      out += kHex[next & 0xf];
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string OutcomeNote(const Diagnostic& d) {
  switch (d.outcome) {
    case Outcome::kRefusesStart: return "PostgreSQL refuses to start with this (fatal)";
    case Outcome::kRefusesReload:
      return "PostgreSQL refuses this file at a reload and keeps its old values (pg_ident.conf: the file is not "
             "loaded)";
    case Outcome::kErrorsWhenRun: return "the statement fails when it runs";
    case Outcome::kIgnoresLine:
    case Outcome::kAdvisory: break;
  }
  return "";
}

std::string AlsoText(const Also& also) {
  return std::string("also ") + also.rule->name + " (" + also.rule->code + "): " + also.message;
}

std::string VersionsText(const std::vector<Analysis>& analyses, int pg_version, const std::string& reason) {
  std::set<int> majors;
  for (const Analysis& a : analyses)
    if (a.catalog) majors.insert(a.catalog->major());
  if (majors.size() <= 1) {
    const int major = majors.empty() ? pg_version : *majors.begin();
    return "PostgreSQL " + std::to_string(major) + (reason.empty() || major != pg_version ? "" : ": " + reason);
  }
  std::string out = "PostgreSQL ";
  size_t n = 0;
  for (int m : majors) out += (n++ == 0 ? "" : n == majors.size() ? " and " : ", ") + std::to_string(m);
  return out;
}

std::string SummaryLine(const std::vector<Analysis>& analyses, int pg_version, const std::string& reason) {
  int fatal_roots = 0, unread = 0;
  for (const Analysis& a : analyses) {
    if (a.failure != Analysis::Failure::kNone) ++unread;
    else fatal_roots += a.fatal();
  }
  Summary sum = Summarize(analyses);
  std::string out = "Found " + Plural(sum.errors, "error") + ", " + Plural(sum.warnings, "warning") + ", " +
                    std::to_string(sum.info) + " info in " + Plural(static_cast<int>(analyses.size()), "root") +
                    " (" + VersionsText(analyses, pg_version, reason) + ")";
  if (fatal_roots) out += "; PostgreSQL would refuse to start with " + Plural(fatal_roots, "root");
  if (unread) out += "; " + Plural(unread, "root") + (unread == 1 ? " was" : " were") + " not read (see the errors above)";
  return out + ".";
}

}  // namespace pgconflint
