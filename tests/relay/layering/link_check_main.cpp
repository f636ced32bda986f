// The program of every relay_link_check_<layer> executable (tests/relay/layering/CMakeLists.txt):
// it does nothing; what matters is that it links with every object of one layer and only the
// layers below it.
int main()
{
    return 0;
}
