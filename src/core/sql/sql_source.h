// SQL scripts as an input. The script's configuration statements are run as
// a server runs them (one by one, as psql without ON_ERROR_STOP sends them,
// inside their transaction blocks) against the cluster's state: ALTER SYSTEM
// rewrites postgresql.auto.conf byte for byte as the server would, ALTER
// DATABASE/ROLE ... SET fills pg_db_role_setting, CREATE/ALTER TABLESPACE the
// tablespaces' options. Each statement the server would refuse is a finding
// at the statement; what the script leaves behind becomes the analysis'
// settings (with their Origin and scope) and tablespace options, for the
// passes and rules.
#ifndef PGCONFLINT_CORE_SQL_SQL_SOURCE_H_
#define PGCONFLINT_CORE_SQL_SQL_SOURCE_H_

#include <string>

#include "core/model/settings_source.h"

namespace pgconflint {

struct SqlScriptOptions {
  /// A postgresql.auto.conf file the script's ALTER SYSTEM statements
  /// rewrite; "" for none (an empty one).
  std::string auto_conf;
  /// The analysis already holds the configuration the script runs against
  /// (a ConfTreeSource collected first): its root postgresql.auto.conf is
  /// the one rewritten, and its settings tell allow_alter_system and which
  /// custom placeholders exist.
  bool over_tree = false;
  /// When non-null, receives the postgresql.auto.conf ALTER SYSTEM writes.
  std::string* auto_conf_out = nullptr;
};

class SqlScriptSource : public SettingsSource {
 public:
  SqlScriptSource(std::string script, SqlScriptOptions options = {})
      : script_(std::move(script)), options_(std::move(options)) {}
  void Collect(const CollectContext& context, Analysis* out) const override;

 private:
  std::string script_;
  SqlScriptOptions options_;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_SQL_SQL_SOURCE_H_
