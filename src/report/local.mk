# report stage
