# cli stage
