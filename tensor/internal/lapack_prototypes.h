// The LAPACK routines the core calls, from OpenBLAS's libopenblas (Debian
// ships no lapacke header), and typed C++ wrappers around them.
//
// Fortran calling convention: every argument by pointer, matrices
// column-major, 32-bit int sizes (Debian's OpenBLAS is LP64). Each
// CHARACTER argument also passes its length as a hidden trailing size_t
// (gfortran's convention); routines OpenBLAS implements in C ignore it.
//
// The wrappers take sizes and options by value, pick the s (float) or d
// (double) routine from T, and return LAPACK's `info`: 0 on success,
// -i if argument i was illegal (a bug on our side), and a routine-specific
// positive value for numeric failures.
//
// Example:
//   int info = lapack::Getrf<double>(n, n, a, n, pivots);
#ifndef TENSOR_INTERNAL_LAPACK_PROTOTYPES_H_
#define TENSOR_INTERNAL_LAPACK_PROTOTYPES_H_

#include <cstddef>
#include <type_traits>

extern "C" {

#define TENSOR_LAPACK_DECLARE_(prefix, T)                                                        \
  void prefix##gesv_(const int* n, const int* nrhs, T* a, const int* lda, int* ipiv, T* b,       \
                     const int* ldb, int* info);                                                \
  void prefix##trtrs_(const char* uplo, const char* trans, const char* diag, const int* n,       \
                      const int* nrhs, const T* a, const int* lda, T* b, const int* ldb,        \
                      int* info, std::size_t, std::size_t, std::size_t);                        \
  void prefix##gels_(const char* trans, const int* m, const int* n, const int* nrhs, T* a,       \
                     const int* lda, T* b, const int* ldb, T* work, const int* lwork, int* info, \
                     std::size_t);                                                              \
  void prefix##getrf_(const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info);   \
  void prefix##getri_(const int* n, T* a, const int* lda, const int* ipiv, T* work,              \
                      const int* lwork, int* info);                                             \
  void prefix##potrf_(const char* uplo, const int* n, T* a, const int* lda, int* info,           \
                      std::size_t);                                                             \
  void prefix##potrs_(const char* uplo, const int* n, const int* nrhs, const T* a,               \
                      const int* lda, T* b, const int* ldb, int* info, std::size_t);            \
  void prefix##potri_(const char* uplo, const int* n, T* a, const int* lda, int* info,           \
                      std::size_t);                                                             \
  void prefix##pstrf_(const char* uplo, const int* n, T* a, const int* lda, int* piv, int* rank, \
                      const T* tol, T* work, int* info, std::size_t);                          \
  void prefix##syev_(const char* jobz, const char* uplo, const int* n, T* a, const int* lda,     \
                     T* w, T* work, const int* lwork, int* info, std::size_t, std::size_t);     \
  void prefix##geev_(const char* jobvl, const char* jobvr, const int* n, T* a, const int* lda,   \
                     T* wr, T* wi, T* vl, const int* ldvl, T* vr, const int* ldvr, T* work,     \
                     const int* lwork, int* info, std::size_t, std::size_t);                    \
  void prefix##gesdd_(const char* jobz, const int* m, const int* n, T* a, const int* lda, T* s,  \
                      T* u, const int* ldu, T* vt, const int* ldvt, T* work, const int* lwork,  \
                      int* iwork, int* info, std::size_t);                                      \
  void prefix##geqrf_(const int* m, const int* n, T* a, const int* lda, T* tau, T* work,         \
                      const int* lwork, int* info);                                             \
  void prefix##orgqr_(const int* m, const int* n, const int* k, T* a, const int* lda,            \
                      const T* tau, T* work, const int* lwork, int* info);

TENSOR_LAPACK_DECLARE_(s, float)
TENSOR_LAPACK_DECLARE_(d, double)

#undef TENSOR_LAPACK_DECLARE_

}  // extern "C"

namespace tensor::internal::lapack {

// Calls the float or the double routine with the same arguments.
#define TENSOR_LAPACK_CALL_(name, ...)          \
  do {                                          \
    if constexpr (std::is_same_v<T, float>) {   \
      s##name##_(__VA_ARGS__);                  \
    } else {                                    \
      d##name##_(__VA_ARGS__);                  \
    }                                           \
  } while (false)

template <typename T>
int Gesv(int n, int nrhs, T* a, int lda, int* ipiv, T* b, int ldb) {
  int info = 0;
  TENSOR_LAPACK_CALL_(gesv, &n, &nrhs, a, &lda, ipiv, b, &ldb, &info);
  return info;
}

template <typename T>
int Trtrs(char uplo, char trans, char diag, int n, int nrhs, const T* a, int lda, T* b, int ldb) {
  int info = 0;
  TENSOR_LAPACK_CALL_(trtrs, &uplo, &trans, &diag, &n, &nrhs, a, &lda, b, &ldb, &info, 1, 1, 1);
  return info;
}

template <typename T>
int Gels(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* work, int lwork) {
  int info = 0;
  const char trans = 'N';
  TENSOR_LAPACK_CALL_(gels, &trans, &m, &n, &nrhs, a, &lda, b, &ldb, work, &lwork, &info, 1);
  return info;
}

template <typename T>
int Getrf(int m, int n, T* a, int lda, int* ipiv) {
  int info = 0;
  TENSOR_LAPACK_CALL_(getrf, &m, &n, a, &lda, ipiv, &info);
  return info;
}

template <typename T>
int Getri(int n, T* a, int lda, const int* ipiv, T* work, int lwork) {
  int info = 0;
  TENSOR_LAPACK_CALL_(getri, &n, a, &lda, ipiv, work, &lwork, &info);
  return info;
}

template <typename T>
int Potrf(char uplo, int n, T* a, int lda) {
  int info = 0;
  TENSOR_LAPACK_CALL_(potrf, &uplo, &n, a, &lda, &info, 1);
  return info;
}

template <typename T>
int Pstrf(char uplo, int n, T* a, int lda, int* piv, int* rank, T tol, T* work) {
  int info = 0;
  TENSOR_LAPACK_CALL_(pstrf, &uplo, &n, a, &lda, piv, rank, &tol, work, &info, 1);
  return info;
}

template <typename T>
int Potrs(char uplo, int n, int nrhs, const T* a, int lda, T* b, int ldb) {
  int info = 0;
  TENSOR_LAPACK_CALL_(potrs, &uplo, &n, &nrhs, a, &lda, b, &ldb, &info, 1);
  return info;
}

template <typename T>
int Potri(char uplo, int n, T* a, int lda) {
  int info = 0;
  TENSOR_LAPACK_CALL_(potri, &uplo, &n, a, &lda, &info, 1);
  return info;
}

template <typename T>
int Syev(char jobz, char uplo, int n, T* a, int lda, T* w, T* work, int lwork) {
  int info = 0;
  TENSOR_LAPACK_CALL_(syev, &jobz, &uplo, &n, a, &lda, w, work, &lwork, &info, 1, 1);
  return info;
}

// Right eigenvectors only (jobvl = 'N').
template <typename T>
int Geev(char jobvr, int n, T* a, int lda, T* wr, T* wi, T* vr, int ldvr, T* work, int lwork) {
  int info = 0;
  const char jobvl = 'N';
  const int ldvl = 1;
  TENSOR_LAPACK_CALL_(geev, &jobvl, &jobvr, &n, a, &lda, wr, wi, nullptr, &ldvl, vr, &ldvr, work,
                      &lwork, &info, 1, 1);
  return info;
}

template <typename T>
int Gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt, T* work,
          int lwork, int* iwork) {
  int info = 0;
  TENSOR_LAPACK_CALL_(gesdd, &jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork,
                      &info, 1);
  return info;
}

template <typename T>
int Geqrf(int m, int n, T* a, int lda, T* tau, T* work, int lwork) {
  int info = 0;
  TENSOR_LAPACK_CALL_(geqrf, &m, &n, a, &lda, tau, work, &lwork, &info);
  return info;
}

template <typename T>
int Orgqr(int m, int n, int k, T* a, int lda, const T* tau, T* work, int lwork) {
  int info = 0;
  TENSOR_LAPACK_CALL_(orgqr, &m, &n, &k, a, &lda, tau, work, &lwork, &info);
  return info;
}

#undef TENSOR_LAPACK_CALL_

}  // namespace tensor::internal::lapack

#endif  // TENSOR_INTERNAL_LAPACK_PROTOTYPES_H_
