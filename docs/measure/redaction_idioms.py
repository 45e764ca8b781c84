"""Passwords where people and agents actually write them: on the command lines of common tools
(each where the tool's manual puts it) and in configuration files and code idioms. Each line
holds one secret; the measure counts the lines where it is left whole.

    python docs/measure/redaction_idioms.py [--show]

The lists were written from the tools' manuals and the formats' documentation, not from the
labelled file; `tests/stages/test_secrets_verify.py` holds most of them as test cases too.
"""

from __future__ import annotations

import sys

from pica.stages.secrets import redact

PASSWORD = "Zq7wX2pLm9k"
TOKEN = "a9F3kQ7xL2mN8pR4tV6wY1zB5cD0eG3h"

COMMAND_LINES = r"""
sshpass -p {p} ssh ada@host
net use Z: \\srv\share /user:ada {p}
net use Z: \\srv\share {p} /user:CORP\ada
smbclient //srv/share -U ada%{p}
smbclient //srv/share --user=ada%{p}
htpasswd -b .htpasswd ada {p}
htpasswd -bc /etc/nginx/.htpasswd ada {p}
echo '{p}' | docker login --username ada --password-stdin
redis-cli -h db -a {p} ping
redis-cli -a '{p}' --no-auth-warning
ldapsearch -x -D "cn=admin,dc=example,dc=org" -w {p} -b dc=example,dc=org
openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:{p}
openssl rsa -in k.pem -passin pass:{p}
zip -P {p} secret.zip a.txt
7z a -p{p} archive.7z dir
unrar x -p{p} a.rar
sqlcmd -S db -U sa -P {p} -Q "select 1"
bcp dbo.t out t.dat -S db -U sa -P {p}
xfreerdp /v:host /u:ada /p:{p}
rdesktop -u ada -p {p} host
ipmitool -I lanplus -H 10.0.0.5 -U admin -P {p} power status
sqlplus scott/{p}@orcl
expdp system/{p}@db directory=d
keytool -genkey -alias a -keystore k.jks -storepass {p} -keypass {p}
jarsigner -keystore k.jks -storepass {p} app.jar a
mosquitto_pub -h broker -u ada -P {p} -t t -m hi
influx -username ada -password {p}
rabbitmqctl add_user ada {p}
rabbitmqctl change_password ada {p}
CREATE USER 'ada'@'%' IDENTIFIED BY '{p}';
ALTER USER postgres WITH PASSWORD '{p}';
CREATE ROLE app WITH LOGIN PASSWORD '{p}';
ALTER LOGIN sa WITH PASSWORD = '{p}';
GRANT ALL ON *.* TO 'ada'@'localhost' IDENTIFIED BY '{p}';
mysqladmin -u root -p{p} status
mysqldump -u root --password={p} app
mongosh "mongodb://db" -u ada -p {p}
mongo admin -u ada -p '{p}'
aws configure set aws_secret_access_key {p}
az login --service-principal -u http://app -p {p} --tenant t
psql "host=db user=ada password={p} dbname=app"
PGPASSWORD={p} psql -h db -U ada app
lftp -u ada,{p} sftp://host
ncftp -u ada -p {p} host
svn checkout https://svn/repo --username ada --password {p}
hg clone https://ada:{p}@hg/repo
vault login {p}
vault login token={p}
npm config set //registry.npmjs.org/:_authToken {p}
yarn config set npmAuthToken {p}
gh auth login --with-token <<< {p}
docker run -e POSTGRES_PASSWORD={p} postgres
docker run --env MYSQL_ROOT_PASSWORD={p} mysql
kubectl create secret generic db --from-literal=password={p}
helm install x --set auth.password={p}
curl -u ada:{p} https://x
wget --http-password={p} https://x
ssh-keygen -N {p} -f key
openvpn --auth-user-pass <(echo -e "ada\n{p}")
git config --global credential.helper 'store' && echo 'https://ada:{p}@github.com' > ~/.git-credentials
wpa_passphrase MyWifi {p}
nmcli dev wifi connect MyWifi password {p}
mount -t cifs //srv/share /mnt -o username=ada,password={p}
mount -t cifs //srv/s /mnt -o user=ada,pass={p}
sshpass -p '{p}' scp f ada@h:/tmp
"""

# One text, as a file would hold it: multi-line formats (.netrc, YAML, XML) read in context.
CONFIG_AND_CODE = r"""
machine api.example.com login ada password {p}
machine api.example.com
  login ada
  password {p}
[pypi]
username = __token__
password = {p}
//registry.npmjs.org/:_authToken={t}
_auth={t}
{{"auths": {{"registry.example.com": {{"auth": "YWRhOlpxN3dYMnBMbTlr"}}}}}}
users:
- name: ada
  user:
    token: {t}
https://ada:{p}@github.com
[default]
aws_access_key_id = AKIAQWERTYUIOPASDFGH
aws_secret_access_key = {t}
db.example.com:5432:app:ada:{p}
[client]
user=ada
password={p}
<server>
  <id>nexus</id>
  <username>ada</username>
  <password>{p}</password>
</server>
signing.password={p}
ossrhPassword={p}
define('DB_PASSWORD', '{p}');
define( 'AUTH_KEY', '{t}' );
$db_pass = '{p}';
$config['db_password'] = "{p}";
production:
  adapter: postgresql
  password: {p}
DATABASES = {{'default': {{'ENGINE': 'x', 'PASSWORD': '{p}'}}}}
[remote]
type = s3
secret_access_key = {t}
[default]
access_key = AKIAQWERTYUIOPASDFGH
secret_key = {t}
github.com:
    oauth_token: {t}
    user: ada
apiVersion: v1
kind: Secret
data:
  password: WnE3d1gycExtOWsK
[global]
index-url = https://ada:{p}@pypi.example.com/simple
[registry]
token = "{t}"
---
:rubygems_api_key: {t}
DATABASE_URL=postgres://ada:{p}@db:5432/app
spring.datasource.password={p}
spring:
  datasource:
    password: {p}
"ConnectionStrings": {{ "Default": "Server=db;Database=app;User Id=ada;Password={p};" }}
variable "db_password" {{ default = "{p}" }}
db_password = "{p}"
ENV DB_PASSWORD={p}
ARG NPM_TOKEN={t}
environment:
  - POSTGRES_PASSWORD={p}
  MYSQL_PASSWORD: {p}
-e "ADMIN_PASSWORD={p}"
os.environ["OPENAI_KEY"] = "{t}"
process.env.API_SECRET = '{t}';
System.setProperty("javax.net.ssl.keyStorePassword", "{p}");
props.put("password", "{p}");
conn = psycopg2.connect(host="db", user="ada", password="{p}")
mysql.connector.connect(user='ada', password='{p}', host='db')
client = OpenAI(api_key="{t}")
headers = {{"X-Api-Key": "{t}"}}
headers = {{"Authorization": f"Bearer {t}"}}
requests.get(url, auth=("ada", "{p}"))
HTTPBasicAuth('ada', '{p}')
new NetworkCredential("ada", "{p}")
smtp.login("ada@example.com", "{p}")
ftp.login('ada', '{p}')
git remote set-url origin https://ada:{t}@github.com/o/r.git
PrivateKey = yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=
auth-user-pass
jdbc:mysql://db:3306/app?user=ada&password={p}
Password: {p}
password: "{p}"
PASSWORD='{p}'
"password":"{p}"
'password' => '{p}',
:password => '{p}',
password: '{p}',
<input type="password" value="{p}">
--db-password={p}
--admin-pass {p}
-Dpassword={p}
-Djavax.net.ssl.trustStorePassword={p}
login(username="ada", password="{p}")
user.set_password("{p}")
ALTER USER 'root'@'localhost' IDENTIFIED WITH mysql_native_password BY '{p}';
"""


def left_whole(template: str, whole_text: bool) -> tuple[list[str], int]:
    """The lines whose secret survives redaction, and how many lines hold one."""
    text = template.strip("\n").format(p=PASSWORD, t=TOKEN)
    lines = [line for line in text.splitlines() if PASSWORD in line or TOKEN in line]
    if whole_text:
        redacted_lines = redact(text).splitlines()
        pairs = zip(text.splitlines(), redacted_lines, strict=True)
        missed = [a for a, b in pairs if PASSWORD in b or TOKEN in b]
    else:
        missed = [line for line in lines if PASSWORD in redact(line) or TOKEN in redact(line)]
    return missed, len(lines)


def main(argv: list[str]) -> None:
    for name, template, whole in (
        ("command lines", COMMAND_LINES, False),
        ("configuration and code", CONFIG_AND_CODE, True),
    ):
        missed, total = left_whole(template, whole)
        print(f"{name}: {len(missed)} of {total} left whole")
        if "--show" in argv:
            for line in missed:
                print("   ", line)


if __name__ == "__main__":
    main(sys.argv[1:])
