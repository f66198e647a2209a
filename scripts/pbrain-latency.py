#!/usr/bin/env python3
"""How long pbrain-tabula takes to answer, as a Gomocup manager measures it (from writing the command to reading
the move, through the pipes). Plays MOVES answers at `INFO timeout_turn` TURN_MS against random opponent moves
near the stones, starting a new game whenever one ends, then prints the slowest answers.

    cargo build --release -p tabula-cli
    scripts/pbrain-latency.py [--moves 300] [--turn-ms 1000] [--brain target/release/pbrain-tabula]
"""
import argparse
import random
import subprocess
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--turn-ms", type=int, default=1000)
    parser.add_argument("--brain", default="target/release/pbrain-tabula")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    brain = subprocess.Popen([args.brain], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        brain.stdin.write(line + "\n")
        brain.stdin.flush()

    def answer():
        while True:
            line = brain.stdout.readline()
            if not line:
                raise SystemExit("the brain closed its output")
            if not line.startswith(("MESSAGE", "DEBUG")):
                return line.strip()

    send(f"INFO timeout_turn {args.turn_ms}")
    times = []
    while len(times) < args.moves:
        send("START 15")
        assert answer() == "OK"
        stones = set()
        while len(times) < args.moves:
            near = [(x + dx, y + dy) for (x, y) in stones or {(7, 7)} for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
            free = [p for p in near if 0 <= p[0] < 15 and 0 <= p[1] < 15 and p not in stones]
            x, y = rng.choice(free)
            stones.add((x, y))
            start = time.monotonic()
            send(f"TURN {x},{y}")
            reply = answer()
            elapsed = time.monotonic() - start
            if reply.startswith("ERROR"):
                break  # the game is over: a new one
            times.append(elapsed)
            mx, my = map(int, reply.split(","))
            stones.add((mx, my))
    send("END")
    brain.wait(timeout=5)
    times.sort()
    limit = args.turn_ms / 1000
    over = sum(t > limit for t in times)
    print(f"{len(times)} answers at timeout_turn {args.turn_ms} ms: mean {sum(times) / len(times):.3f} s, "
          f"99th percentile {times[int(0.99 * (len(times) - 1))]:.3f} s, slowest {times[-1]:.3f} s, "
          f"{over} over the limit")


if __name__ == "__main__":
    main()
