#include "tests/hosts/dmlab/test_engine_players.h"

#include <cstdio>
#include <string>

namespace test_engine {
namespace {

void Inventory(const DmlabContext& c, Player& p, bool spawning, float x) {
  float position[3] = {x, 0, 0}, velocity[3] = {0, 0, 0}, angles[3] = {0, 0, 0};
  c.hooks.update_inventory(c.userdata, spawning, false, 0, 3, p.amounts, 2, p.persistents, 2,
                           p.stats, 1, p.powerups, 0, 40, position, velocity, angles);
}

}  // namespace

void Player::Join(const DmlabContext& c) {
  *this = Player{};
  team = c.hooks.team_select(c.userdata, 0, "player");
  char info[256] = "\\name\\player\\model\\crash\\headmodel\\crash\\";
  c.hooks.update_player_info(c.userdata, 0, info, sizeof(info));
  // The model, as the engine parses it from the info string.
  std::string model = info;
  const std::size_t at = model.find("\\model\\");
  model = at == std::string::npos ? "" : model.substr(at + 7, model.find('\\', at + 7) - at - 7);
  c.hooks.new_client_info(c.userdata, 0, "player", model.c_str());
  Inventory(c, *this, true, 0);
}

void Player::Frame(const DmlabContext& c, int frame, float x) {
  Inventory(c, *this, false, x);
  const float values[2] = {static_cast<float>(frame), x};
  c.hooks.game_event(c.userdata, "FRAME", 2, values);
}

void Player::Show(const DmlabContext& c, std::vector<unsigned char>* rgb, int width,
                  int height) const {
  if (rgb->size() < static_cast<std::size_t>(width) * height * 3 || width < 1 || height < 1) return;
  unsigned char* pixel = rgb->data() + (static_cast<std::size_t>(height) * width - 1) * 3;
  pixel[0] = c.hooks.has_alt_cameras(c.userdata) ? 1 : 0;
  pixel[1] = static_cast<unsigned char>(amounts[0]);
  pixel[2] = static_cast<unsigned char>(team);
}

}  // namespace test_engine
