#!/usr/bin/env bash
# Rebuilds games/data/othello.weights from scratch, whatever weights the tree holds: first the fit to the WTHOR
# games and the logbook alone, then ROUNDS rounds of self-play (default 2, the committed recipe), each of 40,000
# games (8 seeds x 5,000, level Train6 of config/train-levels.toml, random 8-ply openings, written in series order
# so a seed always gives the same file; round R uses seeds 10(R-1)+1 to 10(R-1)+8) played with the weights fitted
# to the real games and the rounds before it, and after each round a fit to the real games and every round so far.
# About 50 minutes of self-play a round and 10 minutes a fit on 2 cores. A game file already in the self-play
# folder is used as it is, so an interrupted run picks up where it stopped.
#   ROUNDS=N scripts/train-othello.sh [games-dir] [selfplay-dir]
set -euo pipefail
cd "${0%/*}/.."
data="${1:-../shared/data/othello-games}"
selfplay="${2:-target/selfplay}"
rounds="${ROUNDS:-2}"
weights=games/data/othello.weights
mkdir -p "$selfplay"
cli=target/release/tabula-cli
cargo build --release -p tabula-cli
# The labelled positions of the real games are kept between the fits.
"$cli" train othello "$data" --cache "$selfplay/cache" --out "$weights"
records=()
for ((round = 1; round <= rounds; round++)); do
    # The games of this round are played with the weights just fitted, embedded in the binary.
    cargo build --release -p tabula-cli
    for ((seed = 10 * (round - 1) + 1; seed <= 10 * (round - 1) + 8; seed++)); do
        file="$selfplay/d6-s$seed.rec"
        if [ ! -s "$file" ]; then
            TABULA_CONFIG=config/train-levels.toml "$cli" arena --game othello --rules othello --level Train6 \
                --games 5000 --opening 8 --seed "$seed" --quiet --record "$file" > /dev/null
        fi
        records+=("$file")
    done
    extra=$(IFS=,; echo "${records[*]}")
    "$cli" train othello "$data" --cache "$selfplay/cache" --extra "$extra" --out "$weights"
done
