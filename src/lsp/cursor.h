// What is under the cursor in a configuration file, for hover, completion and
// definition: the word (a parameter name or a rule code), the setting line,
// or a `# pgconflint:` directive comment. Words are found in the parsed file
// and its bytes, with guc-file.l's identifier characters.
#ifndef PGCONFLINT_LSP_CURSOR_H_
#define PGCONFLINT_LSP_CURSOR_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/model/analysis.h"
#include "core/knowledge/extension_catalog.h"

namespace pgconflint::lsp {

/// guc-file.l's LETTER_OR_DIGIT ([A-Za-z_0-9\200-\377]) and the '.' of a
/// qualified name.
bool IsNameChar(char c);
/// The characters of rule codes and kebab-case rule names.
bool IsRuleChar(char c);

/// The longest run of `in_word` characters of `text` that contains or ends
/// at `offset` (empty at `offset` when there is none).
Range WordAround(std::string_view text, uint32_t offset, bool (*in_word)(char));

/// The parameter `name` names in `catalog`, case-insensitively; an old name
/// (sort_mem) resolves to its parameter and sets *old_name. Otherwise a
/// module's parameter (pg_stat_statements.max) that `extensions` knows, with
/// *module set to its module when `module` is given. Null if none.
const Parameter* ParameterNamed(const Catalog& catalog, std::string_view name, bool* old_name,
                                const ExtensionSet* extensions = nullptr, const ExtensionModule** module = nullptr);

/// The comment of `file` around `offset` when it is a `# pgconflint:`
/// directive, else null.
const CommentLine* DirectiveAt(const LoadedFile& file, uint32_t offset);

/// The setting of `a` on the line of file `file` that holds `offset`, or null.
const Setting* SettingAt(const Analysis& a, int file, uint32_t offset);

/// include, include_if_exists or include_dir, in any case.
bool IsIncludeDirective(std::string_view name);
/// The files the include directive at `offset` of `file` read, as the
/// analysis followed it (none when the file is missing or the directory empty).
std::vector<int> IncludedBy(const Analysis& a, int file, uint32_t offset);

}  // namespace pgconflint::lsp

#endif  // PGCONFLINT_LSP_CURSOR_H_
