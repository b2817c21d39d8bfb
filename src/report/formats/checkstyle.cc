// The `checkstyle` format: Checkstyle's XML, read by Jenkins' warnings
// plugin, reviewdog (-f=checkstyle), SonarQube and many editors. One <file>
// per file in the order its first finding appears; columns count code points.
#include <map>

#include "report/reporter.h"
#include "report/text.h"

namespace pgconflint {

void RenderCheckstyle(const std::vector<Analysis>& analyses, const ReportOptions& options, std::ostream& out) {
  // file path -> its <error> lines, in the order files first appear.
  std::vector<std::string> order;
  std::map<std::string, std::string> errors;
  for (const Analysis& a : analyses)
    for (const Diagnostic& d : a.diagnostics) {
      std::string path = BasePath(a, d.file, options.base_dir);
      if (!errors.count(path)) order.push_back(path);
      Span s = SpanOf(a, d.where(), ColumnUnit::kCodePoint);
      std::string message = d.message + (d.help.empty() ? "" : " (" + d.help + ")");
      errors[path] += "    <error line=\"" + std::to_string(s.begin.line) + "\" column=\"" +
                      std::to_string(s.begin.column) + "\" severity=\"" + std::string(SeverityName(d.severity())) +
                      "\" message=\"" + XmlEscape(message) + "\" source=\"pgconflint." + d.rule->code + "." +
                      d.rule->name + "\"/>\n";
    }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n";
  for (const std::string& path : order) out << "  <file name=\"" << XmlEscape(path) << "\">\n" << errors[path] << "  </file>\n";
  out << "</checkstyle>\n";
}

extern const Reporter kFormat_checkstyle;
const Reporter kFormat_checkstyle = {"checkstyle", "Checkstyle XML", RenderCheckstyle, 100};

}  // namespace pgconflint
