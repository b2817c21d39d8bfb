// KeyedRows: the rows a script's statements leave behind (pg_db_role_setting,
// tablespace options, postgresql.auto.conf entries), keyed so that a statement
// costs O(1) on average however many rows there are, with transactions that
// roll back in time of their changes.
#ifndef PGCONFLINT_CORE_BASE_KEYED_ROWS_H_
#define PGCONFLINT_CORE_BASE_KEYED_ROWS_H_

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pgconflint {

/// Rows in the order their keys were last set: Set erases every row of the
/// key and appends the new one, as a list would (a key may hold several rows
/// when they were Append-ed, as in a postgresql.auto.conf written by hand).
/// Rows may belong to a group (a scope, a tablespace) that EraseGroup erases
/// in time of its rows. Between Begin and Commit or Rollback every change is
/// journaled; Rollback undoes them in time of the changes.
template <class Row>
class KeyedRows {
 public:
  /// The last row of `key`, or null.
  const Row* Find(const std::string& key) const {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &slots_[it->second.back()].row;
  }

  /// Appends a row for `key`, keeping the rows it already has.
  void Append(const std::string& key, Row row, const std::string& group = "") {
    std::vector<size_t> before;
    if (auto it = index_.find(key); it != index_.end()) before = it->second;
    Link(key, group, std::move(row));
    if (journaling_) journal_.push_back({Change::kAppend, key, std::move(before)});
  }

  /// The key's rows are replaced by `row`, now the last row.
  void Set(const std::string& key, Row row, const std::string& group = "") {
    Erase(key);
    Append(key, std::move(row), group);
  }

  /// Erases the rows of `key`; false when it has none.
  bool Erase(const std::string& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return false;
    std::vector<size_t> rows = std::move(it->second);
    index_.erase(it);
    for (size_t i : rows) Unlink(i);
    if (journaling_) journal_.push_back({Change::kErase, key, std::move(rows)});
    else Compact();
    return true;
  }

  /// Erases every row of `group`.
  void EraseGroup(const std::string& group) {
    auto it = groups_.find(group);
    if (it == groups_.end()) return;
    std::vector<std::string> keys;
    keys.reserve(it->second.size());
    for (const auto& [key, count] : it->second) keys.push_back(key);
    for (const std::string& key : keys) Erase(key);
  }

  /// Erases every row.
  void Clear() {
    std::vector<std::string> keys;
    keys.reserve(index_.size());
    for (const auto& [key, rows] : index_) keys.push_back(key);
    for (const std::string& key : keys) Erase(key);
  }

  void Begin() {
    journaling_ = true;
    journal_.clear();
  }
  void Commit() {
    journaling_ = false;
    journal_.clear();
    Compact();
  }
  void Rollback() {
    for (auto c = journal_.rbegin(); c != journal_.rend(); ++c) {
      if (c->kind == Change::kAppend) {  // the appended row is the last slot
        Slot& s = slots_.back();
        RemoveFromGroup(s.key, s.group);
        --live_;
        slots_.pop_back();
        if (c->rows.empty()) index_.erase(c->key);
        else index_[c->key] = c->rows;
      } else {
        for (size_t i : c->rows) Relink(i);
        index_[c->key] = c->rows;
      }
    }
    journaling_ = false;
    journal_.clear();
    Compact();
  }

  /// Calls f(row) for every row, in order.
  template <class F>
  void ForEach(F f) const {
    for (const Slot& s : slots_)
      if (s.live) f(s.row);
  }

  std::vector<Row> Rows() const {
    std::vector<Row> out;
    out.reserve(live_);
    ForEach([&](const Row& r) { out.push_back(r); });
    return out;
  }

  size_t size() const { return live_; }

 private:
  struct Slot {
    std::string key, group;
    Row row;
    bool live = true;
  };
  struct Change {
    enum Kind { kAppend, kErase } kind;
    std::string key;
    std::vector<size_t> rows;  // the key's rows before the change
  };

  void Link(const std::string& key, const std::string& group, Row row) {
    index_[key].push_back(slots_.size());
    slots_.push_back({key, group, std::move(row), true});
    ++groups_[group][key];
    ++live_;
  }
  void Unlink(size_t i) {
    slots_[i].live = false;
    RemoveFromGroup(slots_[i].key, slots_[i].group);
    --live_;
  }
  void Relink(size_t i) {
    slots_[i].live = true;
    ++groups_[slots_[i].group][slots_[i].key];
    ++live_;
  }
  void RemoveFromGroup(const std::string& key, const std::string& group) {
    auto g = groups_.find(group);
    auto k = g->second.find(key);
    if (--k->second == 0) g->second.erase(k);
    if (g->second.empty()) groups_.erase(g);
  }
  // Drops erased slots once they outnumber the live ones (never while a
  // journal refers to slot positions): amortized O(1) per change.
  void Compact() {
    if (journaling_ || slots_.size() < 64 || slots_.size() - live_ <= live_) return;
    std::vector<Slot> kept;
    kept.reserve(live_);
    index_.clear();
    for (Slot& s : slots_) {
      if (!s.live) continue;
      index_[s.key].push_back(kept.size());
      kept.push_back(std::move(s));
    }
    slots_ = std::move(kept);
  }

  std::vector<Slot> slots_;
  std::unordered_map<std::string, std::vector<size_t>> index_;  // key -> its live slots, in order
  std::unordered_map<std::string, std::unordered_map<std::string, size_t>> groups_;  // group -> key -> live rows
  size_t live_ = 0;
  bool journaling_ = false;
  std::vector<Change> journal_;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_KEYED_ROWS_H_
