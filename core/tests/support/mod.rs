//! Toy games for testing the searcher without a real game.

pub mod placement;
pub mod random_tree;
pub mod tictactoe;
