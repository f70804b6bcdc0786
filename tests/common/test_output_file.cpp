// Tests of writing files (sssp/output_file.hpp) and JSON strings
// (sssp/json.hpp): what the runner's outputs, the graph cache and the
// benchmark programs' --json stand on.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "io_test_util.hpp"
#include "sssp/errors.hpp"
#include "sssp/json.hpp"
#include "sssp/output_file.hpp"

namespace sssp {
namespace {

using namespace io_test;
namespace fs = std::filesystem;

// The entries of `dir`, to show that no temporary was left behind.
std::size_t entries(const TempDir& dir) {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) ++count;
  return count;
}

TEST(JsonEscape, QuotesBackslashesAndControlCharactersAreEscaped) {
  EXPECT_EQ(json_escape("plain text"), "plain text");
  EXPECT_EQ(json_escape("say \"hi\""), "say \\\"hi\\\"");
  EXPECT_EQ(json_escape("C:\\dir"), "C:\\\\dir");
  EXPECT_EQ(json_escape("two\nlines"), "two\\nlines");
  EXPECT_EQ(json_escape("tab\there\r\x01"), "tab\\u0009here\\u000d\\u0001");
  EXPECT_EQ(json_escape(std::string(1, '\0')), "\\u0000");
  EXPECT_EQ(json_escape("\x1f"), "\\u001f");
  EXPECT_EQ(json_escape("Wien \xc3\xa4 \x7f"), "Wien \xc3\xa4 \x7f") << "UTF-8 and DEL pass as they are";
}

TEST(JsonEscape, StringIsQuoted) {
  EXPECT_EQ(json_string(""), "\"\"");
  EXPECT_EQ(json_string("a\"b\n"), "\"a\\\"b\\n\"");
}

TEST(WriteAtomically, WritesTheWholeFileAndLeavesNoTemporary) {
  TempDir dir;
  const std::string path = dir.file("out.txt");
  write_file(path, "old contents, longer than the new");
  write_atomically(path, [](std::ostream& out) { out << "new"; });
  EXPECT_EQ(read_bytes(path), "new");
  EXPECT_EQ(entries(dir), 1u);
}

TEST(WriteAtomically, FailedRenameLeavesTheOldFileAndNoTemporary) {
  TempDir dir;
  const std::string path = dir.file("taken");
  fs::create_directory(path);  // a directory: the rename over it fails
  write_file(dir.file("taken/inside"), "kept");
  EXPECT_TRUE(throws_input_error([&] { write_atomically(path, [](std::ostream& out) { out << "new"; }); },
                                 {"cannot rename ", "taken.tmp", " to " + path + ": "}));
  EXPECT_EQ(read_bytes(dir.file("taken/inside")), "kept");
  EXPECT_EQ(entries(dir), 1u);
}

TEST(WriteAtomically, MissingDirectoryIsNamed) {
  TempDir dir;
  const std::string path = dir.file("no/such/dir/out.txt");
  EXPECT_TRUE(throws_input_error([&] { write_atomically(path, [](std::ostream& out) { out << "x"; }); },
                                 {"cannot create " + path + ".tmp", "No such file or directory"}));
}

TEST(WriteAtomically, ReplacesASymlinkRatherThanItsTarget) {
  TempDir dir;
  write_file(dir.file("target"), "target");
  fs::create_symlink(dir.file("target"), dir.file("link"));
  write_atomically(dir.file("link"), [](std::ostream& out) { out << "new"; });
  EXPECT_FALSE(fs::is_symlink(dir.file("link")));
  EXPECT_EQ(read_bytes(dir.file("link")), "new");
  EXPECT_EQ(read_bytes(dir.file("target")), "target");
}

TEST(IsSameFile, SameRegularFileThroughLinksAndPaths) {
  TempDir dir;
  write_file(dir.file("a"), "a");
  write_file(dir.file("b"), "b");
  fs::create_symlink(dir.file("a"), dir.file("soft"));
  fs::create_hard_link(dir.file("a"), dir.file("hard"));
  EXPECT_TRUE(is_same_file(dir.file("a"), dir.file("a")));
  EXPECT_TRUE(is_same_file(dir.file("soft"), dir.file("a")));
  EXPECT_TRUE(is_same_file(dir.file("hard"), dir.file("a")));
  EXPECT_FALSE(is_same_file(dir.file("a"), dir.file("b")));
}

TEST(IsSameFile, NewPathsAreComparedResolved) {
  TempDir dir;
  fs::create_directory(dir.file("sub"));
  EXPECT_TRUE(is_same_file(dir.file("new"), dir.file("sub/../new")));
  EXPECT_FALSE(is_same_file(dir.file("new"), dir.file("other")));
  write_file(dir.file("exists"), "x");
  EXPECT_FALSE(is_same_file(dir.file("new"), dir.file("exists"))) << "one exists, the other not";
}

TEST(IsSameFile, DevicesAreNeverTheSameFile) { EXPECT_FALSE(is_same_file("/dev/null", "/dev/null")); }

TEST(RequireWritable, DirectoryIsRefusedWithTheOption) {
  TempDir dir;
  EXPECT_TRUE(throws_input_error(
      [&] {
        require_writable({"--write-graph", dir.path().string()});
      },
      {"--write-graph: ", " is a directory: give the path of a file"}));
}

TEST(RequireWritable, NewFileInAWritableDirectoryAndDevicesPass) {
  TempDir dir;
  EXPECT_NO_THROW(require_writable({"--write-graph", dir.file("new")}));
  EXPECT_NO_THROW(require_writable({"--write-graph", "/dev/null"}));
}

TEST(RequireWritable, UnwritableDirectoryIsNamed) {
  if (geteuid() == 0) GTEST_SKIP() << "root may write any directory";
  TempDir dir;
  fs::create_directory(dir.file("locked"));
  fs::permissions(dir.file("locked"), fs::perms::owner_read | fs::perms::owner_exec);
  EXPECT_TRUE(throws_input_error(
      [&] {
        require_writable({"--write-distances", dir.file("locked/out")});
      },
      {"--write-distances: cannot write ", "no file can be created in ", "choose a writable directory"}));
  fs::permissions(dir.file("locked"), fs::perms::owner_all);
}

TEST(WriteOutput, RegularFileIsReplacedWhole) {
  TempDir dir;
  const std::string path = dir.file("out");
  write_file(path, "old contents");
  write_output({"--write-distances", path}, [](std::ostream& out) { out << "1\n2\n"; });
  EXPECT_EQ(read_bytes(path), "1\n2\n");
  EXPECT_EQ(entries(dir), 1u);
}

TEST(WriteOutput, SymlinkTargetIsWrittenAndTheLinkStays) {
  TempDir dir;
  write_file(dir.file("target"), "old");
  fs::create_symlink(dir.file("target"), dir.file("link"));
  write_output({"--write-distances", dir.file("link")}, [](std::ostream& out) { out << "new"; });
  EXPECT_TRUE(fs::is_symlink(dir.file("link")));
  EXPECT_EQ(read_bytes(dir.file("target")), "new");
}

TEST(WriteOutput, FailedWriteNamesTheOption) {
  TempDir dir;
  const std::string path = dir.file("no/such/dir/out");
  EXPECT_TRUE(throws_input_error(
      [&] {
        write_output({"--write-graph", path}, [](std::ostream& out) { out << "x"; });
      },
      {"--write-graph: writing " + path + " failed (disk full?); " + path + " is unchanged"}));
  // Not a regular file: written in place, so nothing is said to be unchanged.
  EXPECT_TRUE(throws_input_error(
      [&] {
        write_output({"--write-graph", dir.path().string()}, [](std::ostream& out) { out << "x"; });
      },
      {"--write-graph: writing " + dir.path().string() + " failed (disk full?)"}));
  EXPECT_EQ(entries(dir), 0u);
}

TEST(WriteOutput, DeviceIsWrittenInPlace) {
  EXPECT_NO_THROW(write_output({"--write-graph", "/dev/null"}, [](std::ostream& out) { out << "x"; }));
  struct stat status {};
  ASSERT_EQ(stat("/dev/null", &status), 0);
  EXPECT_TRUE(S_ISCHR(status.st_mode));
}

}  // namespace
}  // namespace sssp
