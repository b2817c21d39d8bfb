// The recommender's huge pages: how many the host should reserve for the
// main shared memory area of the recommended settings (vm.nr_hugepages, as
// the documentation has it: at least shared_memory_size_in_huge_pages) and
// the huge_pages value that goes with the profile's reservation.
#include <algorithm>

#include "core/advice/recommend_internal.h"
#include "core/model/effective.h"
#include "core/model/shared_memory.h"

namespace pgconflint::recommend_internal {
namespace {

std::string Pages(double n) { return Num(n); }

std::string Bytes(double b) { return ExprValue::Number(b, Dim::kBytes).Display(); }  // 2MB, 1GB: page sizes

}  // namespace

void AddHugePages(const Analysis& recommended, Recommendation* r) {
  const Profile& p = r->profile;
  // Only Linux requests huge pages by a count of reserved pages (PGC515:
  // explicit requests exist on Linux and Windows only).
  if (p.os && *p.os != "linux") return;
  EffectiveConfig eff(recommended);
  std::optional<SharedMemorySize> size = ComputeSharedMemory(eff);
  if (!size) return;
  HugePagesAdvice& a = r->huge_pages;
  a.shared_memory = size->bytes;
  a.page = HugePageSizeOf(eff, p);
  a.nr_hugepages = HugePagesShown(size->bytes, a.page);
  const double mapped = HugePagesMapped(size->bytes, a.page);
  const std::string area = "the main shared memory area of these settings is " + Num(size->megabytes()) + "MB" +
                           " (shared_memory_size), " + Pages(a.nr_hugepages) + " huge pages of " + Bytes(a.page) +
                           (p.huge_page_size_bytes ? "" : " (assumed; --huge-page-size)");
  if (p.huge_pages && *p.huge_pages >= mapped) {
    a.value = "on";
    a.why = area + ", and the profile reserves " + Pages(*p.huge_pages) +
            ": on makes a missing reservation stop the start instead of falling back to normal pages";
  } else {
    a.value = "try";
    a.why = area + ": reserve vm.nr_hugepages = " + Pages(a.nr_hugepages) +
            " and try uses them (on would refuse to start " +
            (p.huge_pages ? "with the profile's " + Pages(*p.huge_pages) : "without them") + ")";
  }
  r->machine.push_back({"huge_pages", a.value, "", "", a.why, "formula"});
}

}  // namespace pgconflint::recommend_internal
