// Shared by hba_parse.cc and hba_options.cc: the state of parse_hba_line
// over one line. Not part of the core's interface.
#ifndef PGCONFLINT_CORE_HBA_HBA_INTERNAL_H_
#define PGCONFLINT_CORE_HBA_HBA_INTERNAL_H_

#include <string>
#include <vector>

#include "core/hba/hba.h"

namespace pgconflint {

class HbaParser {
 public:
  HbaParser(const AuthLine& line, const AuthParseOptions& options, HbaRule* out)
      : line_(line), o_(options), r_(out) {}
  /// Fills the rule; false when the server refuses the line.
  bool Run();

 private:
  // hba_parse.cc
  bool Refuse(std::string message, Range where);
  bool RefuseLogOnly(std::string message, Range where);
  bool Regexes(const std::vector<AuthToken>& tokens);
  bool ConnType();
  bool Address(size_t* field);
  bool Method(size_t field);
  bool MethodBuilt(const std::string& method) const;
  // hba_options.cc
  bool Option(const HbaOption& opt);
  bool OnlyFor(const HbaOption& opt, std::initializer_list<const char*> methods, const char* names);
  bool Mandatory();
  bool Radius();
  bool OAuth();

  const AuthLine& line_;
  const AuthParseOptions& o_;
  HbaRule* r_;
  // Options the mandatory checks look at, by name (the last one set wins).
  std::vector<std::string> set_;
  std::vector<std::string> radius_servers_, radius_secrets_, radius_ports_, radius_identifiers_;
  bool radius_servers_set_ = false, radius_secrets_set_ = false;
};

}  // namespace pgconflint

#endif  // PGCONFLINT_CORE_HBA_HBA_INTERNAL_H_
