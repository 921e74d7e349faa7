# engines stage
