#include "core/sql/sql_transaction.h"

namespace pgconflint {

void TransactionModes::Begin() {
  block_default_read_only_ = default_read_only_;
  block_read_only_ = default_read_only_;
}

void TransactionModes::End(bool commit) {
  if (!commit || local_default_) default_read_only_ = block_default_read_only_;
  local_default_ = false;
}

void TransactionModes::Set(std::string_view name, bool on, bool local, bool in_block) {
  if (name == "default_transaction_read_only") {
    if (local && !in_block) return;  // SET LOCAL outside a block changes nothing
    default_read_only_ = on;
    if (local) local_default_ = true;
  } else if (name == "transaction_read_only" && in_block) {
    block_read_only_ = on;
  }
}

const char* TransactionModes::WritingCommand(SqlStatement::Kind kind) {
  using Kind = SqlStatement::Kind;
  switch (kind) {
    case Kind::kAlterRole: return "ALTER ROLE";
    case Kind::kAlterDatabase:
    case Kind::kDatabaseTablespace: return "ALTER DATABASE";
    case Kind::kCreateTablespace: return "CREATE TABLESPACE";
    case Kind::kAlterTablespace: return "ALTER TABLESPACE";
    default: return nullptr;
  }
}

}  // namespace pgconflint
