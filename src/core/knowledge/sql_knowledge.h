// What pgconflint knows about PostgreSQL's SQL side, per major: keywords and
// their categories, which parameters ALTER/SET refuse whatever the value, the
// list parameters whose items are written as quoted identifiers, the options
// a tablespace and a table accept, lexer facts, and the server's wording of
// each refusal.
// Harvested from real servers by scripts/harvest_sql_knowledge.py into
// knowledge/sql.json, embedded in the binary and parsed on first use.
#ifndef PGCONFLINT_CORE_KNOWLEDGE_SQL_KNOWLEDGE_H_
#define PGCONFLINT_CORE_KNOWLEDGE_SQL_KNOWLEDGE_H_

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/knowledge/catalog.h"

namespace pgconflint {

/// pg_get_keywords().catcode.
enum class KeywordCategory { kNone, kUnreserved, kColName, kTypeFuncName, kReserved };

/// One storage parameter that ALTER TABLESPACE ... SET (...) or ALTER TABLE
/// ... SET (...) accepts ("random_page_cost"; "fillfactor",
/// "toast.autovacuum_enabled"), with the type, range and values the server
/// named when it refused probes (scripts/harvest_sql_knowledge.py).
struct StorageOption {
  enum class Type { kBool, kInteger, kReal, kEnum };
  std::string name;  // lower case; "toast." for the options of a table's TOAST table
  Type type = Type::kInteger;
  double min = 0, max = 0;          // kInteger and kReal
  std::string min_text, max_text;   // as the server prints the range
  std::vector<std::string> values;  // kEnum: the values the server lists when it refuses one

  /// A Parameter that stands for a kBool, kInteger or kReal option, so that a
  /// value is parsed as the server parses it (parse_bool, parse_int,
  /// parse_real: no units). It points into this option's strings.
  Parameter AsParameter() const;
};

/// The SQL facts of one major. Immutable once built; thread-safe.
class SqlFacts {
 public:
  /// The facts of `major`, or null when knowledge/sql.json has none.
  static const SqlFacts* ForMajor(int major);

  int major() const { return major_; }
  /// The category of `word` (lower case), kNone for a plain identifier.
  KeywordCategory Keyword(std::string_view word) const;
  /// Why SET/ALTER DATABASE/ALTER ROLE refuse `name` whatever its value
  /// ("parameter \"x\" cannot be changed now"), or "" when they do not.
  const std::string& ContextRefusal(std::string_view name) const;
  /// Why ALTER DATABASE/ROLE ... SET refuse `value` of `name` (a check hook
  /// that judges it against the running session, as transaction_isolation's
  /// "must be called before any query"), or "" when they accept it. `value`
  /// is compared ASCII case-insensitively with the harvested spelling.
  const std::string& ScopedValueRefusal(std::string_view name, std::string_view value) const;
  /// The words a session accepts in the list of `name` although a file takes
  /// any (15+: wal_consistency_checking's resource managers), lower case;
  /// empty when a session checks no more than a file.
  const std::vector<std::string>& SessionListKeywords(std::string_view name) const;
  /// Whether ALTER SYSTEM writes the list items of `name` as quoted identifiers.
  bool ListQuote(std::string_view name) const;
  /// The storage parameters of a tablespace, in name order.
  const std::vector<StorageOption>& tablespace_options() const { return tablespace_options_; }
  /// The storage parameters of a table, in name order.
  const std::vector<StorageOption>& table_options() const { return table_options_; }
  /// The tablespace or table option called `name` (lower case), or null.
  const StorageOption* FindTablespaceOption(std::string_view name) const;
  const StorageOption* FindTableOption(std::string_view name) const;

  bool numeric_junk() const { return numeric_junk_; }                  // "64MB" is one bad token (15+)
  bool non_decimal_integers() const { return non_decimal_integers_; }  // 0x10, 0o17, 0b101 (16+)
  bool numeric_underscores() const { return numeric_underscores_; }    // 1_000 (16+)

  /// The server's message `key` (see the harvest script) with its {placeholders}
  /// replaced; "" when this major has no such message.
  std::string Message(std::string_view key, const std::map<std::string, std::string>& values = {}) const;
  /// Whether this major has message `key` (null in the knowledge means no).
  bool HasMessage(std::string_view key) const;

  /// Reads every major of a knowledge/sql.json text. False with *error when
  /// it is malformed. Never throws.
  static bool Load(std::string_view json_text, std::vector<SqlFacts>* out, std::string* error);

 private:
  friend struct SqlFactsBuilder;
  int major_ = 0;
  std::unordered_map<std::string, KeywordCategory> keywords_;
  std::unordered_map<std::string, std::string> refused_;  // lower-cased name -> message
  std::map<std::string, std::string> scoped_refused_;      // "name\x01value", lower-cased -> message
  std::map<std::string, std::vector<std::string>, std::less<>> session_list_keywords_;  // lower-cased name
  std::unordered_set<std::string> list_quote_;            // lower-cased names
  std::vector<StorageOption> tablespace_options_;
  std::vector<StorageOption> table_options_;
  std::map<std::string, std::string, std::less<>> messages_;
  bool numeric_junk_ = false, non_decimal_integers_ = false, numeric_underscores_ = false;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_KNOWLEDGE_SQL_KNOWLEDGE_H_
