// The command line's options: a repeatable option takes exactly one value per
// occurrence, so that the PATH after it stays a PATH (`check --tablespace
// cold=cold-object postgresql.conf` took the file as a second tablespace).
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>

#include "cli/commands.h"

namespace pgconflint::cli {
namespace {

TEST(CliOptionsTest, EveryRepeatableOptionTakesOneValuePerOccurrence) {
  CLI::App app{"pgconflint"};
  std::vector<Command> commands = {AddCheck(&app, true),   AddShow(&app, true),      AddParams(&app, true),
                                   AddExplain(&app, true), AddDocs(&app, true),            AddRecommend(&app, true),
                                   AddDiff(&app, true),    AddServer(&app, true),    AddSnapshot(&app, true),
                                   AddApplySql(&app, true)};
  int repeatable = 0;
  // A subcommand's options, with those of its option groups (the help sections).
  auto options = [](CLI::App* app) {
    std::vector<const CLI::Option*> all;
    for (const CLI::Option* o : app->get_options()) all.push_back(o);
    for (CLI::App* group : app->get_subcommands([](CLI::App* a) { return a->get_name().empty(); }))
      for (const CLI::Option* o : group->get_options()) all.push_back(o);
    return all;
  };
  for (const Command& c : commands) {
    for (const CLI::Option* o : options(c.app)) {
      if (o->get_positional() || o->get_items_expected_max() <= 1) continue;
      ++repeatable;
      EXPECT_FALSE(o->get_allow_extra_args()) << c.app->get_name() << " " << o->get_name()
                                              << " would take the arguments after it";
    }
  }
  EXPECT_GT(repeatable, 8) << "the check found the repeatable options";
}

}  // namespace
}  // namespace pgconflint::cli
