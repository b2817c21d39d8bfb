// The built-in rules that C++ code names: the ones it emits, and a few its
// tests name. A rule that only rules/*.toml describes (a declarative rule: a
// `when` condition, or a custom evaluator) has no value here and is found by
// its code or name. Written by hand, in code order: pgconflint_embed checks
// each value against rules/*.toml (the name is the rule's in PascalCase, the
// comment its code) and that every rule with neither `when` nor `evaluator`
// is named here. Kept apart from the generated table so that editing a rule's
// text or adding a declarative rule recompiles only that table.
#ifndef PGCONFLINT_CORE_RULES_RULE_IDS_H_
#define PGCONFLINT_CORE_RULES_RULE_IDS_H_

namespace pgconflint {

enum class RuleId : int {
  kUnnamed = -1,  // a rule C++ does not name
  kSyntaxError,  // PGC001
  kUnknownParameter,  // PGC101
  kParameterNotInVersion,  // PGC102
  kRenamedParameter,  // PGC103
  kParameterNotSettableInFile,  // PGC104
  kExtensionValueIgnored,  // PGC161
  kExtensionParameterUnknown,  // PGC162
  kExtensionNotLoaded,  // PGC163
  kExtensionNeedsPreload,  // PGC164
  kLibraryNotFound,  // PGC165
  kPgStatStatementsMemory,  // PGC166
  kPgStatStatementsTrackAll,  // PGC167
  kAutoExplainTimingOverhead,  // PGC168
  kIoTimingNotTracked,  // PGC169
  kInvalidValue,  // PGC201
  kValueOutOfRange,  // PGC202
  kValueRounded,  // PGC203
  kValueWithoutUnit,  // PGC204
  kOctalOrHexLiteral,  // PGC205
  kIncludeNotFound,  // PGC301
  kIncludeRecursion,  // PGC302
  kSettingOverridden,  // PGC303
  kOptionalIncludeMissing,  // PGC304
  kIncludeOutsideTree,  // PGC305
  kAutoConfIncluded,  // PGC306
  kSettingOutsideRecommendedRange,  // PGC703
  kHbaLineRefused,  // PGC831
  kHbaNoRules,  // PGC832
  kIdentLineRefused,  // PGC833
  kHbaRuleShadowed,  // PGC834
  kHbaTrust,  // PGC835
  kHbaCleartextPassword,  // PGC836
  kHbaMd5Method,  // PGC837
  kHbaHostsslWithoutSsl,  // PGC838
  kHbaHostgssencWithoutGssapi,  // PGC839
  kHbaMapUndefined,  // PGC840
  kIdentMapUnused,  // PGC841
  kHbaRejectAfterAllow,  // PGC842
  kHbaAddressHostBits,  // PGC843
  kAuthFileNotRead,  // PGC844
  kAuthDiffersFromServer,  // PGC845
  kUnusedSuppression,  // PGC901
  kUnknownRuleInSuppression,  // PGC902
  kMalformedSuppression,  // PGC903
  kSqlSyntaxError,  // PGC1001
  kCannotRunInTransaction,  // PGC1002
  kParameterCannotBeChanged,  // PGC1003
  kParameterNotSettablePerSession,  // PGC1004
  kUnregisteredCustomParameter,  // PGC1005
  kAlterSystemDisabled,  // PGC1006
  kTablespaceOptionUnknown,  // PGC1007
  kTablespaceOptionInvalid,  // PGC1008
  kAutoConfBlocksReload,  // PGC1009
  kAlterSystemCannotFixAutoConf,  // PGC1010
  kTablespaceOptionForStorage,  // PGC1012
  kLoadLibraryPathInvalid,  // PGC1013
  kTableOptionUnknown,  // PGC1014
  kTableOptionInvalid,  // PGC1015
  kPendingRestart,  // PGC1101
  kServerRefusedSetting,  // PGC1102
  kConfigurationDrift,  // PGC1103
  kHbaFileError,  // PGC1104
  kLiveViewLimited,  // PGC1105
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_RULES_RULE_IDS_H_
