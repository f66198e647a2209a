#!/usr/bin/env bash
# Rebuilds games/data/othello.weights from scratch: 40,000 self-play games (8 seeds x 5,000, level Train6 of
# config/train-levels.toml, random 8-ply openings, written in series order so a seed always gives the same file),
# then the fit to the WTHOR games, the logbook and those games. About 70 minutes of self-play and 5 minutes of
# fitting on 2 cores.
#   scripts/train-othello.sh [games-dir] [selfplay-dir]
set -euo pipefail
cd "${0%/*}/.."
data="${1:-../shared/data/othello-games}"
selfplay="${2:-target/selfplay}"
mkdir -p "$selfplay"
cargo build --release -p tabula-cli
cli=target/release/tabula-cli
records=()
for seed in 1 2 3 4 5 6 7 8; do
    file="$selfplay/d6-s$seed.rec"
    if [ ! -s "$file" ]; then
        TABULA_CONFIG=config/train-levels.toml "$cli" arena --game othello --rules othello --level Train6 \
            --games 5000 --opening 8 --seed "$seed" --quiet --record "$file" > /dev/null
    fi
    records+=("$file")
done
extra=$(IFS=,; echo "${records[*]}")
"$cli" train othello "$data" --extra "$extra" --out games/data/othello.weights
