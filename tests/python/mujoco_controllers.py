"""Scripted controllers for the MuJoCo task levels, written from each
task's physics: what a good policy earns, against the zero policy.

Each takes the observations QPOS, QVEL (and TARGET for the reacher) and
returns the actuators' controls in [-1, 1].
"""

import numpy as np


def wrap(angle):
    """An angle in [-pi, pi)."""
    return (angle + np.pi) % (2 * np.pi) - np.pi


def cartpole_balance(observation):
    """PD on cart and pole: push the cart under the way the pole leans."""
    (x, theta), (v, omega) = observation["QPOS"], observation["QVEL"]
    return [np.clip(1 * x + 1.5 * v + 15 * wrap(theta) + 2 * omega, -1, 1)]


def cartpole_swingup(observation):
    """Energy pumping (pole of 1 m, 0.1 kg about its end: I = m l^2 / 3)
    until the pole is near upright, then cartpole_balance."""
    (x, theta), (v, omega) = observation["QPOS"], observation["QVEL"]
    theta = wrap(theta)
    if np.cos(theta) > 0.85:
        return cartpole_balance(observation)
    energy = 0.5 * omega * omega / 3 + 0.5 * 9.81 * (np.cos(theta) - 1)
    push = 0.5 * energy * np.sign(omega * np.cos(theta))
    return [np.clip(push - 0.5 * x - 0.5 * v, -1, 1)]


def pendulum_swingup(observation):
    """Energy pumping (1 kg at 0.5 m: I = 0.25) with the torque of at most
    1, then PD within 25 degrees of upright."""
    theta, omega = wrap(observation["QPOS"][0]), observation["QVEL"][0]
    if np.cos(theta) > 0.9:
        return [np.clip(-20 * theta - 2 * omega, -1, 1)]
    energy = 0.5 * 0.25 * omega * omega + 9.81 * 0.5 * (np.cos(theta) - 1)
    return [np.clip(-5 * energy * np.sign(omega), -1, 1) if omega != 0 else 1.0]


def point_mass_easy(observation):
    """PD towards the centre, one tendon per axis."""
    return list(np.clip(-20 * observation["QPOS"] - 4 * observation["QVEL"], -1, 1))


def reacher_easy(observation):
    """The Jacobian transpose of the two-link arm (0.12 m, 0.11 m to the
    finger) times the finger's error, with damping."""
    (a, b), target = observation["QPOS"], observation["TARGET"]
    elbow = a + b
    finger = np.array([0.12 * np.cos(a) + 0.11 * np.cos(elbow),
                       0.12 * np.sin(a) + 0.11 * np.sin(elbow)])
    jacobian = np.array([[-0.12 * np.sin(a) - 0.11 * np.sin(elbow), -0.11 * np.sin(elbow)],
                         [0.12 * np.cos(a) + 0.11 * np.cos(elbow), 0.11 * np.cos(elbow)]])
    return list(np.clip(jacobian.T @ (300 * (target - finger)) - observation["QVEL"], -1, 1))


def ball_in_cup_catch(observation):
    """Keep the cup under the falling ball (PD on the cup's x towards the
    ball's), and its height where it is."""
    (cup_x, cup_z, ball_x, _), (cup_vx, cup_vz, _, _) = observation["QPOS"], observation["QVEL"]
    return list(np.clip([20 * (ball_x - cup_x) - 2 * cup_vx, -10 * cup_z - 2 * cup_vz], -1, 1))


# level -> (controller, the observations it reads, the least it earns over
# an episode, the most the zero policy earns)
TASKS = {
    "cartpole_balance": (cartpole_balance, ["QPOS", "QVEL"], 950, 800),
    "cartpole_swingup": (cartpole_swingup, ["QPOS", "QVEL"], 600, 50),
    "pendulum_swingup": (pendulum_swingup, ["QPOS", "QVEL"], 500, 50),
    "point_mass_easy": (point_mass_easy, ["QPOS", "QVEL"], 700, 50),
    "reacher_easy": (reacher_easy, ["QPOS", "QVEL", "TARGET"], 800, 50),
    # 500 control steps: the ball falls for the first few.
    "ball_in_cup_catch": (ball_in_cup_catch, ["QPOS", "QVEL"], 450, 50),
}
