// types: see below
