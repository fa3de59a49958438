"""Building blocks: thinc layers and the torch modules behind them. No spaCy pipes here."""
