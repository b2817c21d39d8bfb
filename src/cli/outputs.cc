// Rendering to several destinations.
#include "cli/outputs.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <sstream>

#include "cli/common.h"
#include "core/base/atomic_write.h"
#include "core/base/strings.h"
#include "core/model/echo_limit.h"
#include "core/model/secrets.h"

namespace pgconflint::cli {
namespace {

// GitHub's step summary is appended to, as every step of the job does.
bool AppendTo(const std::string& path, const std::string& text, std::string* error) {
  int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) {
    *error = path + ": " + strerror(errno);
    return false;
  }
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = path + ": " + strerror(errno);
      close(fd);
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return close(fd) == 0;
}

}  // namespace

bool ParseOutput(const std::string& spec, OutputSpec* out, std::string* error) {
  size_t eq = spec.find('=');
  std::string name = spec.substr(0, eq);
  out->reporter = FindReporter(name);
  out->path = eq == std::string::npos ? "" : spec.substr(eq + 1);
  if (!out->reporter) {
    *error = "--output " + spec + ": unknown format \"" + name +
             "\" (formats: " + CommaList(Reporters(), [](const Reporter& r) { return r.name; }) + ")";
    return false;
  }
  if (eq != std::string::npos && out->path.empty()) {
    *error = "--output " + spec + ": empty PATH (write FMT for standard output, FMT=PATH for a file)";
    return false;
  }
  return true;
}

int WriteOutputs(const std::vector<OutputSpec>& outputs, std::vector<Analysis>* redacted,
                 const ReportOptions& options, const std::string& step_summary, std::ostream& standard_output) {
  for (Analysis& a : *redacted) {
    RedactSecrets(&a);
    AbridgeEchoes(&a);
  }
  const std::vector<Analysis>& analyses = *redacted;
  int rc = kExitOk;
  bool github = false;
  // Files first: a file that cannot be written is reported before anything
  // goes to standard output.
  for (const OutputSpec& o : outputs) {
    github |= std::string_view(o.reporter->name) == "github";
    if (o.path.empty()) continue;
    std::ostringstream text;
    ReportOptions plain = options;
    plain.color = false;
    o.reporter->render(analyses, plain, text);
    std::string error;
    if (!WriteFileAtomically(o.path, text.str(), &error)) {
      PrintError("cannot write the " + std::string(o.reporter->name) + " report: " + error);
      rc = kExitInternal;
    }
  }
  for (const OutputSpec& o : outputs)
    if (o.path.empty()) o.reporter->render(analyses, options, standard_output);
  if (!standard_output.flush()) rc = kExitInternal;
  if (github && !step_summary.empty()) {
    std::ostringstream md;
    FindReporter("markdown")->render(analyses, options, md);
    std::string error;
    if (!AppendTo(step_summary, md.str(), &error)) {
      PrintError("cannot write the GitHub step summary: " + error);
      rc = kExitInternal;
    }
  }
  return rc;
}

}  // namespace pgconflint::cli
