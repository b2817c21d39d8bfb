// Numeric IP addresses as pg_hba.conf reads them: getaddrinfo(AI_NUMERICHOST)
// on the address (glibc's exact inet_aton for IPv4, so "127.1" and "0x7f.1"
// are addresses; inet_pton for IPv6), pg_sockaddr_cidr_mask for "/bits", and
// getnameinfo(NI_NUMERICHOST) for how pg_hba_file_rules prints them. Pure
// functions over bytes: nothing here asks the host.
#ifndef PGCONFLINT_CORE_HBA_HBA_ADDRESS_H_
#define PGCONFLINT_CORE_HBA_HBA_ADDRESS_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace pgconflint {

/// An IPv4 or IPv6 address (or netmask), in network byte order.
struct IpAddress {
  uint8_t family = 0;  // 4 or 6; 0 = none
  std::array<uint8_t, 16> bytes{};  // IPv4 uses the first 4

  int bit_count() const { return family == 4 ? 32 : family == 6 ? 128 : 0; }
  bool operator==(const IpAddress& o) const { return family == o.family && bytes == o.bytes; }
};

/// What getaddrinfo(AI_NUMERICHOST) does with `text`.
enum class NumericHost : uint8_t {
  kAddress,     // a numeric address (*out is set)
  kNotNumeric,  // EAI_NONAME: the server takes the text as a host name
  kHostDependent,  // an IPv6 zone by interface name ("fe80::1%eth0"): only the server's host can tell
};
NumericHost ParseNumericHost(std::string_view text, IpAddress* out);

/// pg_sockaddr_cidr_mask: "/bits" as strtol reads it (sign and leading blanks
/// allowed, nothing after the digits), 0..32 or 0..128. False when invalid.
bool CidrMask(std::string_view bits, uint8_t family, IpAddress* mask, int* prefix);

/// The prefix length of a contiguous mask, or -1 when the mask has holes.
int PrefixLength(const IpAddress& mask);

/// getnameinfo(NI_NUMERICHOST) as glibc prints it: dotted quad, or RFC 4291
/// text with the longest run of zero groups compressed and an embedded IPv4
/// address where glibc writes one.
std::string FormatAddress(const IpAddress& a);

/// True when every address of `inner`/`inner_mask` lies in `outer`/`outer_mask`
/// (same family; masks applied as pg_range_sockaddr does).
bool NetworkContains(const IpAddress& outer, const IpAddress& outer_mask, const IpAddress& inner,
                     const IpAddress& inner_mask);
/// True when the two networks share at least one address.
bool NetworksOverlap(const IpAddress& a, const IpAddress& a_mask, const IpAddress& b, const IpAddress& b_mask);

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_HBA_HBA_ADDRESS_H_
