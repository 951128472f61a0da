#include <cblas.h>

#include "gtest/gtest.h"

// LAPACK's Fortran entry point, which Debian's libopenblas carries.
extern "C" void dgesv_(const int* n, const int* nrhs, double* a, const int* lda, int* ipiv,
                       double* b, const int* ldb, int* info);

namespace {

TEST(OpenBlasWiringTest, DgemmMultipliesRowMajorMatrices) {
  const double a[] = {1, 2, 3, 4};  // [[1, 2], [3, 4]]
  const double b[] = {5, 6, 7, 8};
  double c[4] = {};
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0, a, 2, b, 2, 0.0, c, 2);
  EXPECT_DOUBLE_EQ(c[0], 19);
  EXPECT_DOUBLE_EQ(c[1], 22);
  EXPECT_DOUBLE_EQ(c[2], 43);
  EXPECT_DOUBLE_EQ(c[3], 50);
}

TEST(OpenBlasWiringTest, LapackSolvesALinearSystem) {
  // Column-major [[2, 1], [1, 3]] x = [3, 5]  ->  x = [0.8, 1.4].
  double a[] = {2, 1, 1, 3};
  double b[] = {3, 5};
  int n = 2, nrhs = 1, ipiv[2], info = -1;
  dgesv_(&n, &nrhs, a, &n, ipiv, b, &n, &info);
  ASSERT_EQ(info, 0);
  EXPECT_NEAR(b[0], 0.8, 1e-12);
  EXPECT_NEAR(b[1], 1.4, 1e-12);
}

}  // namespace
