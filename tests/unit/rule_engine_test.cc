// The rule engine's custom evaluators and its refusal to reason from values
// the server refuses: restart-required with and without the running server's
// values, planner methods turned off, build-dependent values, and
// memory-overcommit on PostgreSQL's defaults on a small machine. Files live
// on the fake disk (fake_disk.h).
#include "core/checks/rule_engine.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/workspace/workspace.h"
#include "fake_disk.h"

namespace pgconflint {
namespace {

std::vector<const Diagnostic*> FindingsOf(const Analysis& a, std::string_view code) {
  std::vector<const Diagnostic*> out;
  for (const Diagnostic& d : a.diagnostics)
    if (d.rule->code == code) out.push_back(&d);
  return out;
}

// `root` on `disk` linted for PostgreSQL 18 with `running` values and
// profile facts.
Analysis LintDisk(FakeDisk& disk, const std::string& root, const std::map<std::string, std::string>* running = nullptr,
              std::vector<std::pair<std::string, std::string>> facts = {}) {
  WorkspaceOptions o;
  o.fs = &disk.fs();
  o.use_config = false;
  o.pg_version = 18;
  o.running = running;
  o.profile_facts = std::move(facts);
  Workspace ws(o);
  Analysis a;
  std::string error;
  EXPECT_TRUE(ws.Lint(root, &a, &error)) << error;
  return a;
}

TEST(RuleEngineTest, RestartPendingComparesResolvedValuesAndShowsUnits) {
  FakeDisk p;
  std::string root = p.Write("postgresql.conf", "wal_buffers = -1\nshared_buffers = 256MB\nio_method = worker\n");
  // wal_buffers = -1 is shared_buffers / 32: 8MB (1024 pages) for 256MB, as
  // the server reports it, so no restart is pending for it; shared_buffers
  // runs with 16384 pages of 8kB (128MB), shown with its unit.
  std::map<std::string, std::string> running = {
      {"wal_buffers", "1024"}, {"shared_buffers", "16384"}, {"io_method", "worker"}};
  Analysis a = LintDisk(p, root, &running);
  std::vector<const Diagnostic*> f = FindingsOf(a, "PGC803");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]->parameter, "shared_buffers");
  EXPECT_NE(f[0]->message.find("is 256MB in the file but the running server uses 128MB"), std::string::npos)
      << f[0]->message;
}

TEST(RuleEngineTest, AlterSystemPostmasterParametersAreOneFindingPerFile) {
  FakeDisk p;
  p.Write("PG_VERSION", "18\n");
  std::string root = p.Write("postgresql.conf", "work_mem = '4MB'\n");
  p.Write("postgresql.auto.conf",
          "max_connections = '200'\nshared_buffers = '1GB'\nwork_mem = '8MB'\nio_method = 'worker'\n");
  Analysis a = LintDisk(p, p.dir());
  std::vector<const Diagnostic*> f = FindingsOf(a, "PGC803");
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]->severity(), Severity::kInfo);
  EXPECT_NE(f[0]->message.find("3 parameters"), std::string::npos) << f[0]->message;
  EXPECT_NE(f[0]->message.find("max_connections, shared_buffers, io_method"), std::string::npos) << f[0]->message;
}

TEST(RuleEngineTest, DefaultsOfASmallCloudVmDoNotOvercommit) {
  FakeDisk p;
  std::string root = p.Write("postgresql.conf", "#shared_buffers = 128MB\n");
  Analysis a = LintDisk(p, root, nullptr, {{"ram", "1GB"}, {"cpus", "2"}});
  EXPECT_TRUE(FindingsOf(a, "PGC601").empty());
  // 500 connections of 256MB on 16GB still overcommit.
  std::string big = p.Write("big/postgresql.conf", "max_connections = 500\nwork_mem = 256MB\n");
  Analysis b = LintDisk(p, big, nullptr, {{"ram", "16GB"}, {"cpus", "4"}});
  EXPECT_EQ(FindingsOf(b, "PGC601").size(), 1u);
}

TEST(RuleEngineTest, RefusedValuesAreNotReasonedFrom) {
  FakeDisk p;
  std::string root = p.Write("postgresql.conf", "shared_buffers = 512mb\nwork_mem = 256MB\nmax_connections = 500\n");
  Analysis a = LintDisk(p, root, nullptr, {{"ram", "16GB"}});
  EXPECT_TRUE(FindingsOf(a, "PGC602").empty());
  EXPECT_TRUE(FindingsOf(a, "PGC601").empty());
  EXPECT_EQ(FindingsOf(a, "PGC201").size(), 1u);
}

TEST(RuleEngineTest, OneValueGetsOneFindingWithTheOthersAsNotes) {
  FakeDisk p;
  // A fragment: no findings about the defaults of a whole configuration.
  std::string root = p.Write("conf.d/io.conf", "effective_io_concurrency = 300\n");
  Analysis a = LintDisk(p, root, nullptr, {{"ram", "16GB"}, {"cpus", "4"}, {"storage", "sata-ssd"}});
  ASSERT_EQ(a.diagnostics.size(), 1u) << a.diagnostics[0].message;
  const Diagnostic& d = a.diagnostics[0];
  EXPECT_EQ(std::string(d.rule->code), "PGC404");
  ASSERT_EQ(d.also.size(), 1u);
  EXPECT_EQ(std::string(d.also[0].rule->name), "io-concurrency-for-storage");
}

}  // namespace
}  // namespace pgconflint
