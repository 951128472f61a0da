// Quake III's .map format, as q3map2 compiles it: brushes (convex solids,
// each a list of planes with a texture projection), patches (Bézier grids,
// for decals) and entities (key/value pairs, with brushes of their own).
// DeepMind Lab's text levels become this (text_level.h), then a .bsp.
//
// Coordinates here are in "world" units: kGameUnits game units each
// (DeepMind Lab's map builder works in them; a maze cell is 100 / 32).
// The text is in game units, numbers as printf's %g writes them.
//
// Example:
//   map::Entity world("worldspawn");
//   world.AddBrush(map::BoxBrush({0, 0, 0}, {1, 1, 1}, {"map/black_d"}));
//   std::string text = world.ToString();
#ifndef HOSTS_DMLAB_MAP_WRITER_H_
#define HOSTS_DMLAB_MAP_WRITER_H_

#include <map>
#include <string>
#include <vector>

namespace hosts::dmlab::map {

inline constexpr double kGameUnits = 32;

struct Vec3 {
  double x = 0, y = 0, z = 0;
  friend Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  friend Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
  friend Vec3 operator*(Vec3 a, double s) { return {a.x * s, a.y * s, a.z * s}; }
  friend Vec3 operator-(Vec3 a) { return {-a.x, -a.y, -a.z}; }
};

Vec3 Min(Vec3 a, Vec3 b);
Vec3 Max(Vec3 a, Vec3 b);
Vec3 Cross(Vec3 a, Vec3 b);
Vec3 Normalized(Vec3 a);
// `v` turned by `degrees` about the unit `axis` (right-handed).
Vec3 Rotated(Vec3 v, Vec3 axis, double degrees);

// A surface's texture: its path under the assets (no extension), offset
// in texels, rotation in degrees and scale (0 leaves q3map2's default).
struct Texture {
  std::string path;
  int offset[2] = {0, 0};
  double angle = 0;
  double scale[2] = {0, 0};
};

struct Plane {
  Vec3 a, b, c;  // three points, counter-clockwise seen from outside
  Texture texture;
};

struct Brush {
  std::vector<Plane> planes;
};

// An axis-aligned box between corners `a` and `b`, one texture all round.
Brush BoxBrush(Vec3 a, Vec3 b, const Texture& texture);
// The same box with `texture` (of `width` x `height` texels) stretched to
// fit each face once.
Brush FittedBoxBrush(Vec3 a, Vec3 b, const std::string& texture, int width, int height);
// Six boxes `thickness` thick enclosing the box between `a` and `b`.
std::vector<Brush> HollowBox(Vec3 a, Vec3 b, double thickness, const Texture& texture);
// A sky box of `size` around `centre`: `texture`_up, _dn, _lf, _rt, _ft, _bk.
std::vector<Brush> SkyBox(Vec3 centre, Vec3 size, double thickness, const std::string& texture,
                          int texture_size);

struct PatchPoint {
  Vec3 position;
  double u = 0, v = 0;
};

// A flat patch of columns x rows control points, texture coordinates
// spanning [0, 1] once.
struct Patch {
  std::string texture;
  int columns = 0, rows = 0;
  std::vector<PatchPoint> points;  // column-major: points[column * rows + row]
};

// A patch of `width` x `height` centred on `centre`, facing `normal`,
// with `up` along its rows.
Patch GridPatch(Vec3 centre, Vec3 normal, Vec3 up, double width, double height, int columns,
                int rows, const std::string& texture);

class Entity {
 public:
  explicit Entity(std::string classname) : classname_(std::move(classname)) {}
  // A point entity: "origin" set to `origin` (in world units).
  Entity(std::string classname, Vec3 origin);

  void Set(const std::string& key, std::string value) { attributes_[key] = std::move(value); }
  void AddBrush(Brush brush) { brushes_.push_back(std::move(brush)); }
  void AddPatch(Patch patch) { patches_.push_back(std::move(patch)); }

  std::string ToString() const;

 private:
  std::string classname_;
  std::map<std::string, std::string> attributes_;  // written in key order
  std::vector<Brush> brushes_;
  std::vector<Patch> patches_;
};

}  // namespace hosts::dmlab::map

#endif  // HOSTS_DMLAB_MAP_WRITER_H_
