-- Recommended by pgconflint for PostgreSQL 18, 24 CPUs, 96GB RAM, olap, nvme, tablespace archive on cold-object, tablespace fast on nvme, tablespace iscsi on network-block.
-- assumption: connections not given: 40 for the olap workload (--connections)
-- assumption: memory model: 3 sort/hash nodes per backend, 10% of RAM kept for the OS (olap: analytic queries join several tables, then aggregate and sort: three sort or hash nodes at once per backend, parallel workers included (an assumption: the documentation of work_mem says a complex query can run several at the same time, and no measurement of how many is cited; EXPLAIN of your own queries shows their count); --nodes-per-query, --headroom)

-- Machine
ALTER SYSTEM SET max_connections = '40';  -- the workload's expected concurrent connections; more clients belong behind a pooler
ALTER SYSTEM SET shared_buffers = '24GB';  -- 25% of RAM: the documentation's starting point for a dedicated server
ALTER SYSTEM SET effective_cache_size = '72GB';  -- shared_buffers plus the page cache the OS keeps; a planner estimate, allocates nothing
ALTER SYSTEM SET work_mem = '133MB';  -- RAM left after the fixed memory, shared by 40 connections + 24 parallel workers x 3 sort/hash nodes, with room for hash tables at hash_mem_multiplier 2 (the memory-overcommit model)
ALTER SYSTEM SET hash_mem_multiplier = '2.0';  -- the default since 15; work_mem leaves room for hash tables this large
ALTER SYSTEM SET maintenance_work_mem = '2GB';  -- RAM/16, 16MB to 2GB: a VACUUM or CREATE INDEX (its parallel workers share it)
ALTER SYSTEM SET autovacuum_work_mem = '1GB';  -- RAM/32, 16MB to 1GB, and at most RAM/8 for all 6 autovacuum workers
ALTER SYSTEM SET wal_buffers = '-1';  -- automatic: shared_buffers/32, at most one WAL segment (16MB here)
ALTER SYSTEM SET min_wal_size = '16GB';  -- a quarter of max_wal_size: recycled segments for bursts
ALTER SYSTEM SET max_wal_size = '64GB';  -- the WAL of 30min at an assumed peak of 1MB/s per CPU (olap) x 1.9 (checkpoint_completion_target), 1GB to 64GB: checkpoints start on time, not on WAL volume; needs that much free disk for pg_wal, and pg_stat_checkpointer (pg_stat_bgwriter before 17) shows requested checkpoints if the peak is higher
ALTER SYSTEM SET checkpoint_timeout = '30min';  -- fewer, smoother checkpoints; longer crash recovery
ALTER SYSTEM SET checkpoint_completion_target = '0.9';  -- spread checkpoint writes over 90% of the interval (the default since 14)
ALTER SYSTEM SET max_worker_processes = '24';  -- one per CPU, at least the default 8: parallel workers need a free slot
ALTER SYSTEM SET max_parallel_workers = '24';  -- the CPUs (at least 2), within max_worker_processes
ALTER SYSTEM SET max_parallel_workers_per_gather = '8';  -- analytic queries use up to half the CPUs
ALTER SYSTEM SET max_parallel_maintenance_workers = '4';  -- parallel index builds and VACUUM
ALTER SYSTEM SET autovacuum_max_workers = '6';  -- a quarter of the CPUs, 3 to 10
ALTER SYSTEM SET autovacuum_worker_slots = '16';  -- slots reserved at start; autovacuum_max_workers can be raised by reload up to this
ALTER SYSTEM SET track_io_timing = 'on';  -- pg_stat_io's read and write times and EXPLAIN (ANALYZE, BUFFERS) I/O timings need it: measuring the I/O settings depends on it; check the clock's overhead with pg_test_timing first
ALTER SYSTEM SET huge_pages = 'try';  -- the main shared memory area of these settings is 25183MB (shared_memory_size), 12592 huge pages of 2MB (assumed; --huge-page-size): reserve vm.nr_hugepages = 12592 and try uses them (on would refuse to start without them)
-- OS: vm.nr_hugepages = 12592 (huge pages of 2MB for shared_memory_size 25183MB; sysctl, /etc/sysctl.d)

-- Storage: NVMe SSD
ALTER SYSTEM SET effective_io_concurrency = '64';  -- NVMe serves many parallel reads; past a few hundred in flight only latency grows (PG18's default 16 is the low end)
ALTER SYSTEM SET maintenance_io_concurrency = '64';  -- VACUUM and recovery prefetch benefit from the same depth
ALTER SYSTEM SET random_page_cost = '1.1';  -- random and sequential reads cost about the same
ALTER SYSTEM SET seq_page_cost = '1.0';  -- the planner's unit; keep it at 1.0
ALTER SYSTEM SET io_method = 'worker';  -- low-latency storage is served well by I/O workers
ALTER SYSTEM SET io_workers = '6';  -- the server's default (3), and one per 4 CPUs above 12 CPUs, an assumption to check with pg_stat_io: each I/O worker performs one read or write at a time, so the workers bound the reads in flight
ALTER SYSTEM SET io_combine_limit = '128kB';  -- 1MB made sequential scans 66% slower than 128kB; keep the default
ALTER SYSTEM SET io_max_combine_limit = '128kB';  -- must be at least io_combine_limit, or reads are silently capped (restart to change)

-- Autovacuum
ALTER SYSTEM SET autovacuum_vacuum_cost_limit = '2000';  -- ten times the default 200: NVMe absorbs the writes, and autovacuum keeps up with busy tables (nvme)
ALTER SYSTEM SET autovacuum_vacuum_cost_delay = '2ms';  -- the default since PostgreSQL 12; 20ms was the default in 11 and earlier

-- Tablespaces (only these four options exist per tablespace)
ALTER TABLESPACE "archive" SET (effective_io_concurrency = 4, maintenance_io_concurrency = 4, random_page_cost = 8.0, seq_page_cost = 2.0);  -- cold-object
ALTER TABLESPACE "fast" SET (effective_io_concurrency = 64, maintenance_io_concurrency = 64, random_page_cost = 1.1, seq_page_cost = 1.0);  -- nvme
ALTER TABLESPACE "iscsi" SET (effective_io_concurrency = 48, maintenance_io_concurrency = 16, random_page_cost = 1.5, seq_page_cost = 1.0);  -- network-block

-- Per table, by size (templates: replace <table>)
-- ~1M rows, oltp: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.05, autovacuum_vacuum_threshold = 1000);
-- ~1M rows, mixed: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.1, autovacuum_vacuum_threshold = 1000);
-- ~1M rows, bulk-load: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.1, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_insert_scale_factor = 0.1, autovacuum_vacuum_insert_threshold = 10000);
-- ~10M rows, oltp: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 1000);
-- ~10M rows, mixed: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.05, autovacuum_vacuum_threshold = 1000);
-- ~10M rows, bulk-load: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.05, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_insert_scale_factor = 0.05, autovacuum_vacuum_insert_threshold = 10000);
-- ~100M rows, oltp: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.005, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_limit = 4000);
-- ~100M rows, mixed: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_limit = 4000);
-- ~100M rows, bulk-load: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_vacuum_insert_threshold = 10000, autovacuum_vacuum_cost_limit = 4000);
-- ~1B rows, oltp: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.001, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_limit = 4000);
-- ~1B rows, mixed: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.002, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_limit = 4000);
-- ~1B rows, bulk-load: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.002, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_insert_scale_factor = 0.002, autovacuum_vacuum_insert_threshold = 10000, autovacuum_vacuum_cost_limit = 4000);

SELECT pg_reload_conf();
-- Parameters with context postmaster need a restart: SELECT name FROM pg_settings WHERE pending_restart;
