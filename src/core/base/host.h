// Facts about the machine the server runs on that some values depend on:
// installed locales, the time zone database, the stack limit, io_uring. They
// are injected, never read behind the caller's back, because the linter
// rarely runs on the server's host.
#ifndef PGCONFLINT_CORE_BASE_HOST_H_
#define PGCONFLINT_CORE_BASE_HOST_H_

#include <cstdint>
#include <optional>
#include <string>

namespace pgconflint {

enum class LocaleCategory { kMessages, kMonetary, kNumeric, kTime };

/// Thread-safe. A nullopt answer means "not known"; a host-dependent check
/// then stays silent.
class HostFacts {
 public:
  virtual ~HostFacts() = default;
  /// Whether these facts describe the server's own host. When false, a value
  /// this host refuses is reported as depending on the server's host, never
  /// as fatal.
  virtual bool is_server_host() const = 0;
  /// Whether a locale of `category` named `name` is installed.
  virtual std::optional<bool> HasLocale(LocaleCategory category, const std::string& name) const = 0;
  /// Whether the time zone database has `name` (matched case-insensitively).
  virtual std::optional<bool> HasTimeZone(const std::string& name) const = 0;
  /// The stack size limit (ulimit -s) in bytes; nullopt when unknown or unlimited.
  virtual std::optional<uint64_t> StackLimitBytes() const = 0;
  /// Whether io_uring is usable (kernel, seccomp); nullopt when unknown.
  virtual std::optional<bool> IoUring() const = 0;
};

/// This machine's facts. `is_server_host` says whether the server runs here.
class LocalHost : public HostFacts {
 public:
  explicit LocalHost(bool is_server_host) : is_server_host_(is_server_host) {}
  bool is_server_host() const override { return is_server_host_; }
  std::optional<bool> HasLocale(LocaleCategory category, const std::string& name) const override;
  std::optional<bool> HasTimeZone(const std::string& name) const override;
  std::optional<uint64_t> StackLimitBytes() const override;
  std::optional<bool> IoUring() const override;

 private:
  bool is_server_host_;
};

/// A host about which nothing is known (every answer is nullopt).
class UnknownHost : public HostFacts {
 public:
  bool is_server_host() const override { return false; }
  std::optional<bool> HasLocale(LocaleCategory, const std::string&) const override { return std::nullopt; }
  std::optional<bool> HasTimeZone(const std::string&) const override { return std::nullopt; }
  std::optional<uint64_t> StackLimitBytes() const override { return std::nullopt; }
  std::optional<bool> IoUring() const override { return std::nullopt; }
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_BASE_HOST_H_
