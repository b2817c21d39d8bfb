#include "core/sql/sql_transaction.h"

#include <algorithm>

namespace pgconflint {

TransactionModes::TransactionModes(const Catalog& catalog) {
  for (size_t i = 0; i < kCount; ++i) {
    const Parameter* p = catalog.Find(kNames[i]);
    settings_[i].boot = p ? p->boot_val : "";
    settings_[i].now = settings_[i].at_begin = settings_[i].boot;
  }
}

void TransactionModes::Begin() {
  for (Setting& s : settings_) s.at_begin = s.now;
  block_read_only_ = Now(kReadOnly) == "on";
}

void TransactionModes::End(bool commit) {
  for (Setting& s : settings_) {
    if (!commit || s.local) s.now = s.at_begin;
    s.local = false;
  }
}

bool TransactionModes::Tracks(std::string_view name) {
  return name == "transaction_read_only" || std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

TransactionModes::Setting* TransactionModes::Find(std::string_view name) {
  for (size_t i = 0; i < kCount; ++i)
    if (kNames[i] == name) return &settings_[i];
  return nullptr;
}

std::string_view TransactionModes::Value(std::string_view name) const {
  for (size_t i = 0; i < kCount; ++i)
    if (kNames[i] == name) return settings_[i].now;
  return {};
}

void TransactionModes::Change(Setting* s, std::string_view value, bool local, bool in_block) {
  if (local && !in_block) return;  // SET LOCAL outside a block changes nothing
  s->now = value;
  if (local) s->local = true;
}

void TransactionModes::Set(std::string_view name, std::string_view normalized, bool local, bool in_block) {
  if (name == "transaction_read_only") {
    if (in_block) block_read_only_ = normalized == "on";
  } else if (Setting* s = Find(name)) {
    Change(s, normalized, local, in_block);
  }
}

void TransactionModes::Reset(std::string_view name, bool local, bool in_block) {
  if (name == "transaction_read_only" && in_block) block_read_only_ = false;
  if (Setting* s = Find(name)) Change(s, s->boot, local, in_block);
}

void TransactionModes::ResetAll(bool in_block) {
  for (Setting& s : settings_) Change(&s, s.boot, false, in_block);
}

const char* TransactionModes::WritingCommand(SqlStatement::Kind kind) {
  switch (kind) {
    case SqlStatement::Kind::kAlterRole: return "ALTER ROLE";
    case SqlStatement::Kind::kAlterDatabase:
    case SqlStatement::Kind::kDatabaseTablespace: return "ALTER DATABASE";
    case SqlStatement::Kind::kCreateTablespace: return "CREATE TABLESPACE";
    case SqlStatement::Kind::kAlterTablespace: return "ALTER TABLESPACE";
    case SqlStatement::Kind::kAlterTable: return "ALTER TABLE";
    default: return nullptr;
  }
}

}  // namespace pgconflint
