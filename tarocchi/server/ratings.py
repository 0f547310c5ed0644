"""Ratings (issue 40): OpenSkill per game and table size, the profile and the leaderboards."""
