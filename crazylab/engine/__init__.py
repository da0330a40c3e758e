"""The engine layer: cards, moves, events, pitch, rule sets, the game state and turn machine,
observations and explanations. It imports nothing above it (render, examples, bots, lab, cli,
widgets) and no Jupyter, pandas or plotly."""
