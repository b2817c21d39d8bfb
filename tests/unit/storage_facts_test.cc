// knowledge/storage.toml as data: the embedded file parses and is complete,
// the storage types come from it (names, order, choices), and a malformed
// file is refused with the entry and line at fault.
#include "core/knowledge/storage_facts.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "core/base/strings.h"
#include "core/rules/profile.h"

namespace pgconflint {
namespace {

std::string StorageToml() {
  std::ifstream in(PGC_SOURCE_DIR "/knowledge/storage.toml", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A complete file with one storage type; tests break one thing at a time.
std::string Minimal(const std::string& storage_extra = "", const std::string& top = "default_storage = \"disk\"\n") {
  std::string cell = "{ start = 1, min = 1, max = 2, why = \"w\", source = \"s\" }";
  std::string row = "[[storage]]\nname = \"disk\"\ntitle = \"A disk\"\nscheduler = \"none\"\nmount = \"noatime\"\n"
                    "autovacuum_cost_limit = { server = 800, large_tables = 1000, why = \"budget\" }\n"
                    "io_workers = { per_cpu = 0.5, why = \"workers\", source = \"s\" }\n"
                    "io_concurrency_far_above = 64\n";
  for (const char* p : kStorageParameters) row += std::string(p) + " = " + cell + "\n";
  return top + "[sources]\ns = \"a source\"\n[notes]\nn = \"a note\"\n" + row + storage_extra +
         "[workload.oltp]\nconnections = 10\nshared_buffers_fraction = 0.25\neffective_cache_fraction = 0.75\n"
         "checkpoint_timeout = \"15min\"\npeak_wal_mb_per_second_per_cpu = 2.5\nnodes_per_query = 2\n"
         "headroom = 0.2\nmemory_why = \"m\"\n";
}

TEST(StorageFactsTest, TheBuiltinTablesAreTheFileAsParsed) {
  StorageFacts facts;
  std::string error;
  ASSERT_TRUE(ParseStorageFacts(StorageToml(), &facts, &error)) << error;
  EXPECT_TRUE(BuiltinStorageFacts() == facts);
  ASSERT_FALSE(BuiltinStorageFacts().types.empty());
}

TEST(StorageFactsTest, TheFileIsComplete) {
  StorageFacts facts;
  std::string error;
  ASSERT_TRUE(ParseStorageFacts(StorageToml(), &facts, &error)) << error;
  ASSERT_FALSE(facts.types.empty());
  for (Workload w : {Workload::kOltp, Workload::kOlap, Workload::kMixed, Workload::kWeb, Workload::kDesktop})
    EXPECT_TRUE(facts.workloads.count(WorkloadName(w))) << WorkloadName(w);
  for (const StorageType& t : facts.types) {
    EXPECT_EQ(t.settings.size(), std::size(kStorageParameters)) << t.name;
    for (const auto& [param, s] : t.settings) EXPECT_TRUE(facts.sources.count(s.source)) << t.name << " " << param;
  }
}

TEST(StorageFactsTest, StorageTypesComeFromTheFileInItsOrder) {
  std::vector<Storage> all = Storage::All();
  ASSERT_EQ(all.size(), BuiltinStorageFacts().types.size());
  std::string choices;
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].name(), BuiltinStorageFacts().types[i].name);
    Storage parsed;
    ASSERT_TRUE(ParseStorage(all[i].name(), &parsed));
    EXPECT_EQ(parsed, all[i]);
    EXPECT_EQ(StorageName(parsed), all[i].name());
    choices += (i ? ", " : "") + all[i].name();
  }
  EXPECT_EQ(CommaList(ProfileFactChoices("storage")), choices);
  EXPECT_FALSE(Storage::Named("floppy").has_value());
  // The profile accepts exactly these names and lists them when refusing.
  Profile p;
  std::string error;
  EXPECT_TRUE(SetProfileFact(&p, "storage", all.back().name(), &error)) << error;
  EXPECT_FALSE(SetProfileFact(&p, "storage", "floppy", &error));
  EXPECT_NE(error.find(choices), std::string::npos) << error;
  EXPECT_TRUE(SetProfileFact(&p, "tablespace", "archive=" + all.front().name(), &error)) << error;
  EXPECT_EQ(p.tablespaces.at("archive"), all.front());
}

TEST(StorageFactsTest, PerTypeFactsAreRead) {
  StorageFacts f;
  std::string error;
  ASSERT_TRUE(ParseStorageFacts(Minimal("high_latency = true\nnotes = [\"n\"]\n"), &f, &error)) << error;
  ASSERT_EQ(f.types.size(), 1u);
  const StorageType& t = f.types[0];
  EXPECT_EQ(t.name, "disk");
  EXPECT_EQ(t.title, "A disk");
  EXPECT_TRUE(t.high_latency);
  EXPECT_EQ(t.autovacuum_cost_limit, 800);
  EXPECT_EQ(t.large_table_autovacuum_cost_limit, 1000);
  EXPECT_EQ(t.autovacuum_cost_limit_why, "budget");
  EXPECT_EQ(t.io_workers_per_cpu, 0.5);
  EXPECT_EQ(t.io_workers_why, "workers");
  EXPECT_EQ(t.io_workers_source, "s");
  EXPECT_EQ(t.io_concurrency_far_above, 64);
  EXPECT_EQ(t.notes, std::vector<std::string>{"a note"});
  EXPECT_EQ(t.settings.at("random_page_cost").start, "1");
  EXPECT_EQ(t.settings.at("random_page_cost").max, "2");
  EXPECT_EQ(f.sources.at("s"), "a source");
  EXPECT_EQ(f.workloads.at("oltp").checkpoint_timeout, "15min");
  EXPECT_EQ(f.workloads.at("oltp").peak_wal_mb_per_second_per_cpu, 2.5);
  EXPECT_EQ(f.workloads.at("oltp").nodes_per_query, 2);
  EXPECT_EQ(f.workloads.at("oltp").headroom, 0.2);
  EXPECT_EQ(f.workloads.at("oltp").memory_why, "m");
  EXPECT_EQ(f.default_type, 0);
}

// A cell's other starts: on small machines (small = { cpus, start, why,
// source }) and where the storage carries reports (reporting = {...}).
TEST(StorageFactsTest, StartVariantsAreRead) {
  StorageFacts f;
  std::string error;
  std::string text = Minimal();
  const std::string cell = "effective_io_concurrency = { start = 1, min = 1, max = 2, why = \"w\", source = \"s\"";
  const size_t at = text.find(cell);
  ASSERT_NE(at, std::string::npos);
  text.insert(at + cell.size(), ", small = { cpus = 2, start = 1, why = \"tiny\", source = \"s\" }, "
                                "reporting = { start = 2, why = \"reports\", source = \"s\" }");
  ASSERT_TRUE(ParseStorageFacts(text, &f, &error)) << error;
  const StartingPoint& p = f.types[0].settings.at("effective_io_concurrency");
  EXPECT_EQ(p.small_cpus, 2);
  EXPECT_EQ(p.small.why, "tiny");
  EXPECT_EQ(p.reporting.start, "2");
  std::string no_cpus = text;
  no_cpus.replace(no_cpus.find("cpus = 2, "), 10, "");
  EXPECT_FALSE(ParseStorageFacts(no_cpus, &f, &error));
  EXPECT_NE(error.find("small = { cpus = N, start = ... } needs both"), std::string::npos) << error;
  std::string bad_source = text;
  bad_source.replace(bad_source.find("why = \"reports\", source = \"s\""), 29,
                     "why = \"reports\", source = \"x\"");
  EXPECT_FALSE(ParseStorageFacts(bad_source, &f, &error));
  EXPECT_NE(error.find("reporting needs a why and a source"), std::string::npos) << error;
}

TEST(StorageFactsTest, RealsKeepPostgresqlConfSpelling) {
  StorageFacts f;
  std::string error;
  std::string text = Minimal();
  size_t at = text.find("random_page_cost = { start = 1,");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 31, "random_page_cost = { start = 4.0,");
  at = text.find("seq_page_cost = { start = 1,");
  text.replace(at, 28, "seq_page_cost = { start = 1.25,");
  ASSERT_TRUE(ParseStorageFacts(text, &f, &error)) << error;
  EXPECT_EQ(f.types[0].settings.at("random_page_cost").start, "4.0");
  EXPECT_EQ(f.types[0].settings.at("seq_page_cost").start, "1.25");
}

TEST(StorageFactsTest, MalformedFilesAreRefusedWithTheCause) {
  struct Case {
    std::string text, expect;
  };
  std::string no_start = Minimal();
  no_start.replace(no_start.find("io_method = { start = 1,"), 24, "io_method = {");
  std::string bad_source = Minimal();
  // A cell's source (io_workers, earlier in the row, has one too).
  bad_source.replace(bad_source.find("why = \"w\", source = \"s\"") + 11, 12, "source = \"nowhere\"");
  const Case cases[] = {
      {"[[storage]\n", "storage.toml:1:"},
      {Minimal("notes = [\"missing\"]\n"), "note \"missing\" is no key of [notes]"},
      {no_start, "lacks a start value for io_method"},
      {bad_source, "cites \"nowhere\", which is no key of [sources]"},
      {Minimal("", "default_storage = \"tape\"\n"), "default_storage \"tape\" names no [[storage]] entry"},
      {Minimal("[[storage]]\nname = \"disk\"\ntitle = \"again\"\n"), "\"disk\" is defined twice"},
      {Minimal("[[storage]]\ntitle = \"no name\"\n"), "needs a name and a title"},
      {"default_storage = \"x\"\n", "no [[storage]] entries"},
      {Minimal("high_latency = \"yes\"\n"), "high_latency must be true or false"},
      {[] {
         std::string t = Minimal();
         t.replace(t.find("io_workers = { per_cpu = 0.5,"), 29, "io_workers = { per_cpu = 0,");
         return t;
       }(),
       "needs io_workers = { per_cpu = N"},
      {[] {
         std::string t = Minimal();
         t.replace(t.find(", why = \"budget\""), 16, "");
         return t;
       }(),
       "needs io_concurrency_far_above = N and autovacuum_cost_limit"},
      {[] {
         std::string t = Minimal();
         t.replace(t.find("nodes_per_query = 2"), 19, "nodes_per_query = 0");
         return t;
       }(),
       "nodes_per_query (at least 1)"},
  };
  for (const Case& c : cases) {
    StorageFacts f;
    std::string error;
    EXPECT_FALSE(ParseStorageFacts(c.text, &f, &error)) << c.text;
    EXPECT_NE(error.find(c.expect), std::string::npos) << error;
  }
  // The line of the entry at fault.
  StorageFacts f;
  std::string error;
  EXPECT_FALSE(ParseStorageFacts(Minimal("notes = [\"missing\"]\n"), &f, &error));
  EXPECT_EQ(error.rfind("storage.toml:", 0), 0u) << error;
}

TEST(StorageFactsTest, ANewTypeIsOneEntry) {
  StorageFacts f;
  std::string error;
  std::string second = Minimal();
  size_t row = second.find("[[storage]]");
  size_t end = second.find("[workload.oltp]");
  std::string entry = second.substr(row, end - row);
  entry.replace(entry.find("\"disk\""), 6, "\"tape\"");
  second.insert(end, entry);
  ASSERT_TRUE(ParseStorageFacts(second, &f, &error)) << error;
  ASSERT_EQ(f.types.size(), 2u);
  EXPECT_EQ(f.types[1].name, "tape");
}

}  // namespace
}  // namespace pgconflint
