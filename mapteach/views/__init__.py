"""Floor 3: views. Plots, HTML rendering and every widget, on top of the floors below."""
