-- Recommended by pgconflint for PostgreSQL 18, 2 CPUs, 4GB RAM, web, network-block.
-- assumption: connections not given: 300 for the web workload (--connections)
-- assumption: 300 connections (the workload's default) leave less than 4MB of work_mem each: max_connections lowered to 225; give --connections to keep more, and put a pooler (PgBouncer) in front of more clients
-- assumption: memory model: 1 sort/hash node per backend, 10% of RAM kept for the OS (web: short queries through a pool run one sort or hash node at a time per backend (an assumption, as for oltp); --nodes-per-query, --headroom)

-- Machine
ALTER SYSTEM SET max_connections = '225';  -- the workload's expected concurrent connections; more clients belong behind a pooler
ALTER SYSTEM SET shared_buffers = '1GB';  -- 25% of RAM: the documentation's starting point for a dedicated server
ALTER SYSTEM SET effective_cache_size = '3GB';  -- shared_buffers plus the page cache the OS keeps; a planner estimate, allocates nothing
ALTER SYSTEM SET work_mem = '4MB';  -- RAM left after the fixed memory, shared by 225 connections + 2 parallel workers x 1 sort/hash node, with room for hash tables at hash_mem_multiplier 2 (the memory-overcommit model)
ALTER SYSTEM SET hash_mem_multiplier = '2.0';  -- the default since 15; work_mem leaves room for hash tables this large
ALTER SYSTEM SET maintenance_work_mem = '256MB';  -- RAM/16, 16MB to 2GB: a VACUUM or CREATE INDEX (its parallel workers share it)
ALTER SYSTEM SET autovacuum_work_mem = '128MB';  -- RAM/32, 16MB to 1GB, and at most RAM/8 for all 3 autovacuum workers
ALTER SYSTEM SET wal_buffers = '-1';  -- automatic: shared_buffers/32, at most one WAL segment (16MB here)
ALTER SYSTEM SET min_wal_size = '768MB';  -- a quarter of max_wal_size: recycled segments for bursts
ALTER SYSTEM SET max_wal_size = '3GB';  -- the WAL of 15min at an assumed peak of 1MB/s per CPU (web) x 1.9 (checkpoint_completion_target), 1GB to 64GB: checkpoints start on time, not on WAL volume; needs that much free disk for pg_wal, and pg_stat_checkpointer (pg_stat_bgwriter before 17) shows requested checkpoints if the peak is higher
ALTER SYSTEM SET checkpoint_timeout = '15min';  -- fewer, smoother checkpoints; longer crash recovery
ALTER SYSTEM SET checkpoint_completion_target = '0.9';  -- spread checkpoint writes over 90% of the interval (the default since 14)
ALTER SYSTEM SET max_worker_processes = '8';  -- one per CPU, at least the default 8: parallel workers need a free slot
ALTER SYSTEM SET max_parallel_workers = '2';  -- the CPUs (at least 2), within max_worker_processes
ALTER SYSTEM SET max_parallel_workers_per_gather = '1';  -- short queries: a few workers per query at most
ALTER SYSTEM SET max_parallel_maintenance_workers = '1';  -- parallel index builds and VACUUM
ALTER SYSTEM SET autovacuum_max_workers = '3';  -- a quarter of the CPUs, 3 to 10
ALTER SYSTEM SET autovacuum_worker_slots = '16';  -- slots reserved at start; autovacuum_max_workers can be raised by reload up to this
ALTER SYSTEM SET track_io_timing = 'on';  -- pg_stat_io's read and write times and EXPLAIN (ANALYZE, BUFFERS) I/O timings need it: measuring the I/O settings depends on it; check the clock's overhead with pg_test_timing first
ALTER SYSTEM SET huge_pages = 'try';  -- the main shared memory area of these settings is 1096MB (shared_memory_size), 548 huge pages of 2MB (assumed; --huge-page-size): reserve vm.nr_hugepages = 548 and try uses them (on would refuse to start without them)
-- OS: vm.nr_hugepages = 548 (huge pages of 2MB for shared_memory_size 1096MB; sysctl, /etc/sysctl.d)

-- Storage: iSCSI, Ceph RBD or a SAN reached over the network
ALTER SYSTEM SET effective_io_concurrency = '16';  -- each read pays a network round trip: PG18's default 16 server-wide; up to 48 for large scans (48 beat 128 on a reporting tablespace, where 128 raised the p95 of short queries)
ALTER SYSTEM SET maintenance_io_concurrency = '16';  -- VACUUM streams compete with queries for the same network path
ALTER SYSTEM SET random_page_cost = '1.5';  -- flash-backed, but every request pays network latency
ALTER SYSTEM SET seq_page_cost = '1.0';  -- the planner's unit; keep it at 1.0
ALTER SYSTEM SET io_method = 'worker';  -- worker is the rollback; on high-latency storage io_uring is the candidate to measure where the kernel, the build and seccomp allow it (it was the best configuration measured on iSCSI)
ALTER SYSTEM SET io_workers = '3';  -- one per CPU, from the server's default (3) up to 16: each I/O worker waits on the network for one I/O at a time; with io_method = worker on 16 CPUs, 16 workers helped and 32 hurt (fewer CPUs: one per CPU is an extrapolation)
ALTER SYSTEM SET io_combine_limit = '128kB';  -- larger requests save round trips until the path's throughput cap
ALTER SYSTEM SET io_max_combine_limit = '128kB';  -- must be at least io_combine_limit, or reads are silently capped (restart to change)

-- Autovacuum
ALTER SYSTEM SET autovacuum_vacuum_cost_limit = '800';  -- four times the default 200: the array absorbs writes, but the network path is shared with queries (network-block)
ALTER SYSTEM SET autovacuum_vacuum_cost_delay = '2ms';  -- the default since PostgreSQL 12; 20ms was the default in 11 and earlier

-- Per table, by size (templates: replace <table>)
-- ~1M rows, oltp: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.05, autovacuum_vacuum_threshold = 1000);
-- ~1M rows, mixed: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.1, autovacuum_vacuum_threshold = 1000);
-- ~1M rows, bulk-load: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.1, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_insert_scale_factor = 0.1, autovacuum_vacuum_insert_threshold = 10000);
-- ~10M rows, oltp: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 1000);
-- ~10M rows, mixed: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.05, autovacuum_vacuum_threshold = 1000);
-- ~10M rows, bulk-load: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.05, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_insert_scale_factor = 0.05, autovacuum_vacuum_insert_threshold = 10000);
-- ~100M rows, oltp: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.005, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_limit = 1000);
-- ~100M rows, mixed: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_limit = 1000);
-- ~100M rows, bulk-load: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_vacuum_insert_threshold = 10000, autovacuum_vacuum_cost_limit = 1000);
-- ~1B rows, oltp: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.001, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_limit = 1000);
-- ~1B rows, mixed: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.002, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_cost_limit = 1000);
-- ~1B rows, bulk-load: ALTER TABLE <table> SET (autovacuum_vacuum_scale_factor = 0.002, autovacuum_vacuum_threshold = 1000, autovacuum_vacuum_insert_scale_factor = 0.002, autovacuum_vacuum_insert_threshold = 10000, autovacuum_vacuum_cost_limit = 1000);

SELECT pg_reload_conf();
-- Parameters with context postmaster need a restart: SELECT name FROM pg_settings WHERE pending_restart;
