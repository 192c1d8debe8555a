// Lab files (presets) found by libFuzzer (tests/fuzz/fuzz_lab_file.cpp): each file
// of tests/data/files/bad/lab/ must give a one-line std::invalid_argument naming
// the file and the specific problem; a parsed lab file must write back to text
// that reads to an equal value.
#include "app/headless/lab_file.h"
#include "tests/data/test_util.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

namespace {

// file -> substring of the message it must produce.
const std::map<std::string, std::string> kBadLabFiles = {
    {"number_overflow.json", "not valid JSON (number overflow parsing '1e999')"},
    {"newline_in_key.json", "unknown key 'a\\nb'"},
    {"newline_in_param.json", "parameter 'k\\n' must be a number, a string or a boolean, got an array"},
};

}  // namespace

TEST_CASE("lab file: every bad file gives its one-line error - and every file is listed") {
  const std::string dir = cilab_test::data_dir() + "/bad/lab";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    CAPTURE(name);
    ++files;
    REQUIRE(kBadLabFiles.count(name) == 1);
    std::string msg;
    try {
      cilab::read_lab_file(entry.path().string());
    } catch (const std::invalid_argument& e) {
      msg = e.what();
    }
    CAPTURE(msg);
    CHECK(msg.rfind(entry.path().string() + ": ", 0) == 0);
    CHECK(msg.find(kBadLabFiles.at(name)) != std::string::npos);
    CHECK(msg.find('\n') == std::string::npos);
    CHECK(msg.find('\r') == std::string::npos);
  }
  CHECK(files == static_cast<int>(kBadLabFiles.size()));
}

TEST_CASE("lab file: a note's empty and trailing lines survive writing and reading back") {
  for (const std::string note : {"one\n", "\n", "a\n\nb", "a\n\n", "line"}) {
    CAPTURE(note);
    cilab::LabFile lab;
    lab.module = "kmeans";
    lab.title = "t";
    lab.note = note;
    const cilab::LabFile back = cilab::parse_lab_file(cilab::write_lab_file(lab), "written.json");
    CHECK(back.note == note);
  }
}
