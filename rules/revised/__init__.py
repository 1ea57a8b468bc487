"""The revised (2nd edition) Standard Rules where they differ from the 1975 book: movement costs,
strategic movement and breastworks, line of sight with elevation, its combat procedures and Combat
Results Table, morale. Imports the layers below it; nothing below imports it."""
