// The ALTER SYSTEM file model (guc.c: AlterSystemSetConfigFile and helpers).
#include "core/sql/auto_conf_writer.h"

#include <algorithm>

#include "core/knowledge/catalog.h"
#include "core/sql/sql_quote.h"

namespace pgconflint {

bool ReadAutoConf(const ParsedFile& parsed, const SourceFile& source, int file, std::vector<AutoConfEntry>* out) {
  if (!parsed.errors.empty()) return false;
  for (const SettingLine& s : parsed.settings) {
    AutoConfEntry e;
    e.name = std::string(source.Slice(s.name));
    e.value = s.value_text;
    e.file = file;
    e.line = s.line;
    e.name_range = s.name;
    e.value_range = s.value;
    out->push_back(std::move(e));
  }
  return true;
}

std::string WriteAutoConf(const std::vector<AutoConfEntry>& entries) {
  std::string out(kAutoConfHeader);
  for (const AutoConfEntry& e : entries) out += e.name + " = '" + EscapeAutoConfValue(e.value) + "'\n";
  return out;
}

}  // namespace pgconflint
