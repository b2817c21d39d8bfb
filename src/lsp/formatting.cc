// textDocument/formatting: the canonical layout of `pgconflint format`
// (core/conf/format.h) as one edit per changed line, so that the editor keeps
// marks and the cursor on the lines that do not change.
#include "core/conf/format.h"
#include "core/workspace/project_config.h"
#include "lsp/session.h"

namespace pgconflint::lsp {

json Session::Formatting(const json& params) {
  FileView view;
  Document* doc = FreshView(params, &view);
  // pg_hba.conf, pg_ident.conf and files that are not PostgreSQL's have no layout of ours.
  if (!doc || view.loaded().kind != FileKind::kConf) return nullptr;
  const ProjectConfig* config = nullptr;
  std::string error;
  if (!workspace_->ConfigFor(doc->path, &config, &error)) throw RpcError(kRequestFailed, "pgconflint: " + error);
  SourceFile text(doc->path, TextOf(*doc));
  FormatOptions options;
  options.align = config->format_align;
  FormatResult r = FormatConf(text, options);
  if (!r.ok)
    throw RpcError(kRequestFailed, "pgconflint cannot format this file" +
                                       (r.line ? " (line " + std::to_string(r.line) + ")" : std::string()) + ": " +
                                       r.problem);
  json edits = json::array();
  for (const FormatEdit& e : r.edits) edits.push_back({{"range", RangeJson(text, e.old, unit_)}, {"newText", e.text}});
  return edits;
}

}  // namespace pgconflint::lsp
