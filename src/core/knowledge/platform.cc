// The platform facts of platform.h. The catalogs come from servers on Linux;
// these are the documented differences elsewhere.
#include "core/knowledge/platform.h"

#include <cstdlib>
#include <string>

#include "core/base/quantity.h"
#include "core/base/strings.h"

namespace pgconflint {
namespace {


constexpr const char* kPlatformDocs = "PostgreSQL's documentation";
constexpr const char* kWindowsServerRange = "the server's range on Windows";
constexpr const char* kFlushAfterDocs =
    "PostgreSQL documentation, 19.4 Resource Consumption and 19.5 Write Ahead Log: bgwriter_flush_after "
    "\"The default is 512kB on Linux, 0 elsewhere\"; checkpoint_flush_after \"The default is 256kB on Linux, 0 "
    "elsewhere\" (https://www.postgresql.org/docs/current/runtime-config-resource.html#GUC-BGWRITER-FLUSH-AFTER, "
    "https://www.postgresql.org/docs/current/runtime-config-wal.html#GUC-CHECKPOINT-FLUSH-AFTER)";
constexpr const char* kCombineDocs =
    "PostgreSQL 18 documentation, io_combine_limit and io_max_combine_limit: \"The maximum possible size depends "
    "on the operating system and block size, but is typically 1MB on Unix and 128kB on Windows\" "
    "(https://www.postgresql.org/docs/18/runtime-config-resource.html#GUC-IO-MAX-COMBINE-LIMIT); in 17, whose "
    "limit is 256kB on Unix, Windows has the same 16 blocks (its own IOV_MAX of 16)";
constexpr const char* kWindowsKilobytes =
    "the server's message on Windows, where long stays 32 bits on 64-bit systems: \"2097152 kB is outside the "
    "valid range for parameter \\\"maintenance_work_mem\\\" (1024 .. 2097151)\"; parameters in kilobytes of "
    "memory stop at INT_MAX / 1024 there through PostgreSQL 17";

// In parameter order.
constexpr PlatformFact kPlatformFacts[] = {
    {"bgwriter_flush_after", PlatformFact::Kind::kBootValue, "not-linux", 14, 99, "0", kPlatformDocs, kFlushAfterDocs},
    {"checkpoint_flush_after", PlatformFact::Kind::kBootValue, "not-linux", 14, 99, "0", kPlatformDocs, kFlushAfterDocs},
    {"io_combine_limit", PlatformFact::Kind::kMaximum, "windows", 17, 99, "16", kPlatformDocs, kCombineDocs},
    {"io_max_combine_limit", PlatformFact::Kind::kMaximum, "windows", 18, 99, "16", kPlatformDocs, kCombineDocs},
    {"maintenance_work_mem", PlatformFact::Kind::kMaximum, "windows", 14, 17, "2097151", kWindowsServerRange, kWindowsKilobytes},
    {"work_mem", PlatformFact::Kind::kMaximum, "windows", 14, 17, "2097151", kWindowsServerRange, kWindowsKilobytes},
};

bool PlatformFactHoldsOn(const PlatformFact& f, std::string_view os) {
  return std::string_view(f.os) == "not-linux" ? os != "linux" : os == f.os;
}

}  // namespace

double PlatformFact::number() const { return strtod(value, nullptr); }

std::span<const PlatformFact> PlatformFacts() { return kPlatformFacts; }

const PlatformFact* FindPlatformFact(const Parameter& param, std::string_view os, int major, PlatformFact::Kind kind) {
  for (const PlatformFact& f : kPlatformFacts)
    if (f.kind == kind && param.name == std::string_view(f.parameter) && PlatformFactHoldsOn(f, os) && major >= f.first_major &&
        major <= f.last_major)
      return &f;
  return nullptr;
}

std::string_view PlatformBootValue(const Parameter& param, std::string_view os, int major) {
  const PlatformFact* f = FindPlatformFact(param, os, major, PlatformFact::Kind::kBootValue);
  return f ? f->value : param.boot_val;
}

void ApplyPlatformLimit(const Parameter& param, std::string_view os, int major, ParsedValue* out) {
  const PlatformFact* f = FindPlatformFact(param, os, major, PlatformFact::Kind::kMaximum);
  if (!f || out->number <= f->number()) return;
  out->problem = ValueProblem::kOutOfRange;
  out->message = OutOfRangeMessage(major, param, FormatWhole(out->number), param.min_val, f->value);
  out->hint = "on " + std::string(os) + " the largest value is " + FormatWithUnit(f->number(), param) +
              " (" + f->basis + ")";
  out->normalized.clear();
}

}  // namespace pgconflint
