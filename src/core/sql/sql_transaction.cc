#include "core/sql/sql_transaction.h"

namespace pgconflint {

void TransactionModes::Begin() {
  for (Setting* s : {&default_read_only_, &standard_strings_, &backslash_quote_}) s->at_begin = s->now;
  block_read_only_ = default_read_only_.now;
}

void TransactionModes::End(bool commit) {
  for (Setting* s : {&default_read_only_, &standard_strings_, &backslash_quote_}) {
    if (!commit || s->local) s->now = s->at_begin;
    s->local = false;
  }
}

bool TransactionModes::Tracks(std::string_view name) {
  return name == "default_transaction_read_only" || name == "transaction_read_only" ||
         name == "standard_conforming_strings" || name == "backslash_quote";
}

TransactionModes::Setting* TransactionModes::Find(std::string_view name) {
  if (name == "default_transaction_read_only") return &default_read_only_;
  if (name == "standard_conforming_strings") return &standard_strings_;
  if (name == "backslash_quote") return &backslash_quote_;
  return nullptr;
}

void TransactionModes::Change(Setting* s, bool value, bool local, bool in_block) {
  if (local && !in_block) return;  // SET LOCAL outside a block changes nothing
  s->now = value;
  if (local) s->local = true;
}

void TransactionModes::Set(std::string_view name, std::string_view normalized, bool local, bool in_block) {
  if (name == "transaction_read_only") {
    if (in_block) block_read_only_ = normalized == "on";
  } else if (Setting* s = Find(name)) {
    Change(s, name == "backslash_quote" ? normalized != "off" : normalized == "on", local, in_block);
  }
}

void TransactionModes::Reset(std::string_view name, bool local, bool in_block) {
  if (name == "transaction_read_only" && in_block) block_read_only_ = false;
  if (Setting* s = Find(name)) Change(s, s->boot, local, in_block);
}

void TransactionModes::ResetAll(bool in_block) {
  for (Setting* s : {&default_read_only_, &standard_strings_, &backslash_quote_}) Change(s, s->boot, false, in_block);
}

const char* TransactionModes::WritingCommand(SqlStatement::Kind kind) {
  switch (kind) {
    case SqlStatement::Kind::kAlterRole: return "ALTER ROLE";
    case SqlStatement::Kind::kAlterDatabase:
    case SqlStatement::Kind::kDatabaseTablespace: return "ALTER DATABASE";
    case SqlStatement::Kind::kCreateTablespace: return "CREATE TABLESPACE";
    case SqlStatement::Kind::kAlterTablespace: return "ALTER TABLESPACE";
    default: return nullptr;
  }
}

}  // namespace pgconflint
