// Every test ctest knows is named after its executable ("arbiter_tests.FrameTest.…"),
// so that `ctest -R arbiter` runs a module's tests and nothing else.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/run_command.h"

namespace {

// `ctest -N` (list, run nothing) in the build tree with `args`; its output.
std::string ctest_list(const std::string& args) {
  const std::string build = std::filesystem::path(SMARTBOARD_BINARY).parent_path().string();
  const std::string cmd = "ctest --test-dir " + sb::testing::shell_quote(build) + " -N " + args + " 2>&1";
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  ::pclose(p);
  return out;
}

// The names of the tests `ctest -N args` lists.
std::vector<std::string> listed(const std::string& args) {
  static const std::regex test_line(R"(Test +#\d+: (\S+))");
  const std::string out = ctest_list(args);
  std::vector<std::string> names;
  for (std::sregex_iterator it(out.begin(), out.end(), test_line), end; it != end; ++it) names.push_back((*it)[1]);
  return names;
}

TEST(CtestNames, ARegexOnAModuleNameSelectsThatModulesTests) {
  for (const std::string module : {"arbiter", "vision"}) {
    // `-R vision` also finds a "revision" elsewhere; the module's own are all there.
    int own = 0;
    for (const std::string& name : listed("-R " + module)) own += name.rfind(module, 0) == 0;
    EXPECT_GT(own, 20) << module;
    // Anchored, it selects the module's executables (arbiter_tests, arbiter_games_tests) alone.
    const std::vector<std::string> anchored = listed("-R '^" + module + "'");
    EXPECT_EQ(static_cast<int>(anchored.size()), own) << module;
    for (const std::string& name : anchored) EXPECT_NE(name.find("_tests."), std::string::npos) << name;
  }
}

}  // namespace
