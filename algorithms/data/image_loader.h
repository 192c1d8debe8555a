// Grayscale images as matrices and as one-row image datasets.
//
// The SVD explorer (svd-lowrank) treats a photograph as an h x w matrix A with
// entries in [0, 1]. This loader reads PNG (8-bit; gray, gray+alpha, RGB or
// RGBA) through stb_image (Debian's libstb-dev, compiled into this file with
// static linkage, so no link change) and binary/ASCII PGM/PPM (P2, P3, P5, P6;
// 8 or 16 bits, maxval scaling) with our own parser.
// Colour images become gray with stb_image's luma weights
// Y = (77 R + 150 G + 29 B) / 256 (ITU-R BT.601 in 8-bit fixed point); an alpha
// channel is dropped. Pixel values are scaled by 1/255, like Fashion-MNIST.
//
// Loading is an I/O boundary: failures throw DataError naming the path, what
// was expected, what was found and what to try.
#pragma once

#include "algorithms/core/dataset.h"

#include <Eigen/Core>

#include <memory>
#include <string>

namespace cilab {

// File name of the shipped photograph under assets/ (see assets/README.md):
// scikit-image's "camera" (512 x 512, 8-bit gray), CC0 by Lav Varshney.
inline constexpr const char* kPhotoAsset = "camera.png";

// Largest side accepted by the loader (pixels).
inline constexpr int kMaxImageSide = 8192;

// The image at `path` as an h x w matrix (row 0 = top row), values in [0, 1].
// Throws DataError (missing/unreadable file, not PNG/PGM/PPM, corrupt data,
// larger than kMaxImageSide on a side).
Eigen::MatrixXd load_gray_image(const std::string& path);

// Decodes PNG/PGM/PPM bytes already in memory (`what` names them in errors).
Eigen::MatrixXd decode_gray_image(const unsigned char* bytes, size_t size, const std::string& what);

// The image as a one-row image Dataset: x is 1 x (h*w) (row-major pixels),
// image_h = h, image_w = w, name = file stem, source = the path.
std::shared_ptr<const Dataset> image_dataset(const Eigen::MatrixXd& pixels, const std::string& name,
                                             const std::string& source);

// load_gray_image + image_dataset.
std::shared_ptr<const Dataset> load_image_dataset(const std::string& path);

// Most images an image folder may hold.
inline constexpr int kMaxFolderImages = 200000;

// A labelled image set as torchvision's ImageFolder reads one: `dir` holds one subfolder per
// class (class names = the subfolder names, sorted; ids 0..k-1 in that order), each holding
// PNG/PGM/PPM files (sorted by name; other files ignored), all of one size; rows are the
// images as grey pixels in [0, 1] (colour through load_gray_image's luma), image_h/w set.
// Throws DataError naming the folder or file and what to try (no class folders, a class
// without images, two sizes, more than kMaxFolderImages).
std::shared_ptr<const Dataset> load_image_folder(const std::string& dir);

// The shipped photograph (asset_path(kPhotoAsset)) as a one-row image dataset;
// loaded once and shared. Throws DataError (says how to point CILAB_ASSET_DIR).
std::shared_ptr<const Dataset> photo_dataset();

// True when the leading bytes are a PNG signature or a PGM/PPM magic (P2 P3 P5 P6).
bool looks_like_image(const unsigned char* head, size_t size);

}  // namespace cilab
