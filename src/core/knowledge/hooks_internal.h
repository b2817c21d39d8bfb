// What the check hooks share (hooks.cc, hooks_replication.cc): their
// context, the refusal they write, and the hooks defined apart from the table.
#ifndef PGCONFLINT_CORE_KNOWLEDGE_HOOKS_INTERNAL_H_
#define PGCONFLINT_CORE_KNOWLEDGE_HOOKS_INTERNAL_H_

#include <string>
#include <string_view>

#include "core/base/host.h"
#include "core/knowledge/catalog.h"
#include "core/knowledge/value.h"

namespace pgconflint::hooks {

// What a hook may consult besides the value.
struct HookContext {
  const Catalog& catalog;
  const HostFacts& host;
  int major() const { return catalog.major(); }
  const BuildInfo& build() const { return catalog.build(); }
};

using Hook = void (*)(const HookContext&, const Parameter&, const std::string&, ParsedValue*);

/// Refuses the value as the server does ("invalid value for parameter"), with `detail` as the hint.
void Refuse(const Parameter& param, const std::string& text, const std::string& detail, ParsedValue* out);
bool IsSpace(char c);
bool EqualsIgnoreCase(std::string_view a, const char* b);

// hooks_replication.cc
void SlotName(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out);
void RecoveryTarget(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out);
void RecoveryTargetLsn(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out);
void RecoveryTargetName(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out);
void RecoveryTargetXid(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out);
void RecoveryTargetTimeline(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out);
void RecoveryTargetTime(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out);
void SynchronizedStandbySlots(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out);
void SynchronousStandbyNames(const HookContext& c, const Parameter& p, const std::string& t, ParsedValue* out);

}  // namespace pgconflint::hooks

#endif  // PGCONFLINT_CORE_KNOWLEDGE_HOOKS_INTERNAL_H_
