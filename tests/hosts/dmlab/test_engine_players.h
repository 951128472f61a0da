// The test engine's player (test_engine.cc), as the real engine's game
// code reports it to the context: when it joins a map (team_select,
// update_player_info and then new_client_info with the model the level
// chose, as ClientUserinfoChanged does), when it spawns
// (update_inventory, spawning) and every frame (update_inventory, and the
// game event "FRAME" with the frame's number and x). Its inventory:
// amounts {1, 2, 3}, stats {100, 0}; what the level makes of it is kept.
// The hasAltCameras setting reaches set_has_alt_cameras, as in the real
// dmlab_connect.c. Seen in the frame's bottom-right pixel: red 1 if
// has_alt_cameras, green the first amount, blue the team's letter.
#ifndef TESTS_HOSTS_DMLAB_TEST_ENGINE_PLAYERS_H_
#define TESTS_HOSTS_DMLAB_TEST_ENGINE_PLAYERS_H_

#include <vector>

#include "hosts/dmlab/dmlab_abi.h"

namespace test_engine {

struct Player {
  char team = '\0';
  int amounts[3] = {1, 2, 3};
  int stats[2] = {100, 0};
  int persistents[2] = {0, 0};
  int powerups[1] = {0};

  // The player joins the map and spawns.
  void Join(const DmlabContext& context);
  // A frame at x; then the pixel of the frame `rgb` (width x height x 3).
  void Frame(const DmlabContext& context, int frame, float x);
  void Show(const DmlabContext& context, std::vector<unsigned char>* rgb, int width,
            int height) const;
};

}  // namespace test_engine

#endif  // TESTS_HOSTS_DMLAB_TEST_ENGINE_PLAYERS_H_
