#include <sys/socket.h>
#include <netinet/in.h>
int main(void) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {0};
  a.sin_family = AF_INET;
  if (connect(s, (struct sockaddr *)&a, sizeof a) != 0)
    return 1;
  return 0;
}
