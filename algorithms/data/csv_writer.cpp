#include "algorithms/data/csv_writer.h"

#include <cmath>
#include <ostream>
#include <sstream>
#include <string>

namespace cilab {
std::string csv_field(const std::string& t) {
  if (t.find_first_of(",\"\n\r") == std::string::npos) return t;
  std::string q = "\"";
  for (char c : t) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void write_csv_number(std::ostream& out, double v) {
  if (std::isnan(v)) out << "nan";
  else if (std::isinf(v)) out << (v > 0 ? "inf" : "-inf");
  else out << v;
}

std::string csv_number(double v) {
  std::ostringstream o;
  o.precision(17);
  write_csv_number(o, v);
  return o.str();
}

namespace {

// A header or class name: as csv_field, and an empty name quoted so the column keeps its place.
std::string field(const std::string& t) { return t.empty() ? std::string("\"\"") : csv_field(t); }

}  // namespace

void write_dataset_csv(const Dataset& d, std::ostream& out) {
  const auto old_precision = out.precision(17);
  for (int j = 0; j < d.cols(); ++j) {
    const std::string name =
        j < static_cast<int>(d.column_names.size()) ? d.column_names[static_cast<size_t>(j)] : "x" + std::to_string(j);
    out << (j ? "," : "") << field(name);
  }
  // The loader takes a column named label/class/species/target as the label (a
  // numeric one is also the regression target): the target keeps its name only if it is one of those.
  const bool target_named = d.target_name == "label" || d.target_name == "class" || d.target_name == "target";
  if (d.has_target()) out << "," << (target_named && !d.has_labels() ? d.target_name : std::string("target"));
  if (d.has_labels()) out << ",label";
  out << "\n";
  for (int i = 0; i < d.rows(); ++i) {
    for (int j = 0; j < d.cols(); ++j) {
      if (j) out << ",";
      write_csv_number(out, d.x(i, j));
    }
    if (d.has_target()) {
      out << ",";
      write_csv_number(out, d.target[static_cast<size_t>(i)]);
    }
    if (d.has_labels()) {
      const int c = d.labels[static_cast<size_t>(i)];
      out << ",";
      if (c >= 0) out << (c < static_cast<int>(d.class_names.size()) ? field(d.class_names[static_cast<size_t>(c)])
                                                                     : std::to_string(c));
    }
    out << "\n";
  }
  out.precision(old_precision);
}

}  // namespace cilab
